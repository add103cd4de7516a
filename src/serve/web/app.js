// The cubedb web page: a cube net to paint or fill from a scramble, and solutions to
// step through. Every cube rule and every move is the service's: the page only draws.
"use strict";

const FACES = "URFDLB";
const COLOURS = { U: "white", R: "red", F: "green", D: "yellow", L: "orange", B: "blue" };
// Where each face sits in the 4 x 3 net (column, row) of 3 x 3 blocks.
const NET = { U: [1, 0], L: [0, 1], F: [1, 1], R: [2, 1], B: [3, 1], D: [1, 2] };
const SOLVED = FACES.split("").map((f) => f.repeat(9)).join("");

const state = {
  facelets: SOLVED, // what the net shows now
  start: SOLVED, // the cube being solved (step 0)
  paint: "U",
  steps: [], // facelets after each move of the solution
  moves: [],
  step: 0,
};

const $ = (id) => document.getElementById(id);

function setMessage(text, kind) {
  const box = $("message");
  box.textContent = text || "";
  box.className = "message" + (kind ? " " + kind : "");
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new Error("the service cannot be reached: " + e.message);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(data.error || "the service answered " + response.status);
  }
  return data;
}

// ---- the net ---------------------------------------------------------------------------

function buildPalette() {
  const palette = $("palette");
  FACES.split("").forEach((face, i) => {
    const swatch = document.createElement("button");
    swatch.type = "button";
    swatch.className = "swatch";
    swatch.dataset.face = face;
    swatch.style.setProperty("--colour", `var(--${COLOURS[face]})`);
    swatch.setAttribute("role", "radio");
    swatch.setAttribute("aria-label", `${COLOURS[face]} (${face} face), key ${i + 1}`);
    swatch.title = `${COLOURS[face]} (key ${i + 1})`;
    swatch.addEventListener("click", () => choosePaint(face));
    palette.appendChild(swatch);
  });
  choosePaint("U");
}

function choosePaint(face) {
  state.paint = face;
  for (const swatch of document.querySelectorAll(".swatch")) {
    const on = swatch.dataset.face === face;
    swatch.setAttribute("aria-checked", on ? "true" : "false");
    swatch.classList.toggle("chosen", on);
  }
}

function buildNet() {
  const net = $("net");
  FACES.split("").forEach((face, f) => {
    const block = document.createElement("div");
    block.className = "face";
    block.style.gridColumn = NET[face][0] + 1;
    block.style.gridRow = NET[face][1] + 1;
    for (let k = 0; k < 9; k++) {
      const index = f * 9 + k;
      const sticker = document.createElement("button");
      sticker.type = "button";
      sticker.className = "sticker";
      sticker.dataset.index = index;
      if (k === 4) {
        sticker.disabled = true;
        sticker.classList.add("centre");
      }
      sticker.addEventListener("click", () => paintSticker(index));
      block.appendChild(sticker);
    }
    net.appendChild(block);
  });
}

function draw(facelets) {
  for (const sticker of document.querySelectorAll(".sticker")) {
    const index = Number(sticker.dataset.index);
    const face = facelets[index];
    sticker.style.background = `var(--${COLOURS[face] || "grey"})`;
    sticker.setAttribute(
      "aria-label",
      `${FACES[Math.floor(index / 9)]}${(index % 9) + 1}: ${COLOURS[face] || "unknown"}`
    );
  }
  $("facelets").value = facelets;
  const counts = {};
  for (const c of facelets) counts[c] = (counts[c] || 0) + 1;
  const off = FACES.split("").filter((f) => counts[f] !== 9);
  $("cube-state").textContent =
    facelets === SOLVED
      ? "Solved."
      : off.length
      ? "Colour counts: " + off.map((f) => `${COLOURS[f]} ${counts[f] || 0}`).join(", ") + " (each needs 9)."
      : "";
}

function setCube(facelets) {
  state.facelets = facelets;
  state.start = facelets;
  clearSolution();
  draw(facelets);
}

function paintSticker(index) {
  const chars = state.facelets.split("");
  chars[index] = state.paint;
  setCube(chars.join(""));
  setMessage("");
}

// ---- input -----------------------------------------------------------------------------

async function applyScramble() {
  const scramble = $("scramble").value.trim();
  try {
    const data = await api("POST", "/api/cube", { scramble });
    setCube(data.facelets);
    setMessage(scramble ? `Scrambled with ${data.moves}.` : "", "info");
  } catch (e) {
    setMessage(e.message, "error");
  }
}

async function randomScramble() {
  try {
    const data = await api("GET", "/api/scramble?count=1");
    $("scramble").value = data.scrambles[0];
    setCube(data.facelets[0]);
    setMessage("A uniformly random position, scrambled in at most 21 face turns.", "info");
  } catch (e) {
    setMessage(e.message, "error");
  }
}

function loadFacelets() {
  const text = $("facelets").value.trim();
  if (!/^[URFDLB]{54}$/.test(text)) {
    setMessage("facelets: 54 letters of U R F D L B, in URFDLB face order", "error");
    return;
  }
  setCube(text);
  setMessage("");
}

// ---- solving ---------------------------------------------------------------------------

function clearSolution() {
  state.steps = [];
  state.moves = [];
  state.step = 0;
  $("solution").hidden = true;
}

async function solve(optimal) {
  const metric = $("metric").value;
  const request = { facelets: state.start, metric };
  if (!optimal) request.max_length = Number($("max-length").value);
  const button = optimal ? $("solve-optimal") : $("solve-near");
  button.disabled = true;
  setMessage(optimal ? "Searching for an optimal solution..." : "Solving...", "info");
  try {
    const reply = await api("POST", "/api/solve", request);
    const walk = await api("POST", "/api/cube", {
      facelets: state.start,
      moves: reply.solution,
      steps: true,
    });
    state.moves = reply.solution ? reply.solution.split(" ") : [];
    state.steps = walk.steps;
    showSolution(reply, walk.solved);
    setMessage("");
  } catch (e) {
    setMessage(e.message, "error");
  } finally {
    button.disabled = false;
  }
}

function showSolution(reply, solves) {
  const unit = reply.metric === "qtm" ? "quarter turns" : "face turns";
  const kind = reply.optimal ? "optimal" : reply.method;
  $("summary").textContent =
    reply.length === 0
      ? "Already solved."
      : `${reply.length} ${unit} (${kind}), found in ${reply.elapsed_ms.toFixed(2)} ms` +
        (solves ? "." : ": CHECK FAILED, the moves do not solve the cube.");
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((move, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = move;
    button.setAttribute("aria-label", `after move ${i + 1}, ${move}`);
    button.addEventListener("click", () => goTo(i + 1));
    item.appendChild(button);
    list.appendChild(item);
  });
  $("solution").hidden = false;
  goTo(0);
}

function goTo(step) {
  state.step = Math.max(0, Math.min(step, state.moves.length));
  draw(state.steps[state.step]);
  state.facelets = state.steps[state.step];
  document.querySelectorAll(".move").forEach((b, i) => {
    b.classList.toggle("done", i < state.step);
    b.classList.toggle("current", i === state.step - 1);
  });
  const solved = state.steps[state.step] === SOLVED;
  $("step").textContent =
    `Move ${state.step} of ${state.moves.length}` + (solved ? ": solved" : "");
}

// ---- wiring ----------------------------------------------------------------------------

// ---- competition scrambles -------------------------------------------------------------

async function eventScrambles() {
  const event = $("event").value;
  const count = $("event-count").value || "1";
  const seed = $("event-seed").value;
  const box = $("event-message");
  const list = $("event-scrambles");
  box.textContent = "";
  box.className = "message";
  list.replaceChildren();
  let path = `/api/scramble/${encodeURIComponent(event)}?count=${encodeURIComponent(count)}&format=svg`;
  if (seed !== "") path += `&seed=${encodeURIComponent(seed)}`;
  $("event-scramble").disabled = true;
  try {
    const reply = await api("GET", path);
    reply.scrambles.forEach((scramble, i) => {
      const item = document.createElement("li");
      item.className = "event-scramble";
      const text = document.createElement("pre");
      text.className = "scramble-text";
      text.textContent = scramble;
      item.append(text);
      if (reply.pictures) {
        // The service's own drawing (shapes only), parsed as SVG, never as HTML.
        const doc = new DOMParser().parseFromString(reply.pictures[i], "image/svg+xml");
        const picture = document.importNode(doc.documentElement, true);
        picture.setAttribute("class", "scramble-picture");
        picture.setAttribute("role", "img");
        picture.setAttribute("aria-label", `Scrambled ${event}, scramble ${i + 1}`);
        item.append(picture);
      }
      list.append(item);
    });
    box.textContent = `${reply.scrambles.length} ${event} scramble${reply.scrambles.length === 1 ? "" : "s"}, seed ${reply.seed}`;
  } catch (e) {
    box.textContent = e.message;
    box.className = "message error";
  } finally {
    $("event-scramble").disabled = false;
  }
}

function wire() {
  $("event-scramble").addEventListener("click", eventScrambles);
  $("apply-scramble").addEventListener("click", applyScramble);
  $("scramble").addEventListener("keydown", (e) => e.key === "Enter" && applyScramble());
  $("random").addEventListener("click", randomScramble);
  $("load-facelets").addEventListener("click", loadFacelets);
  $("facelets").addEventListener("keydown", (e) => e.key === "Enter" && loadFacelets());
  $("reset").addEventListener("click", () => {
    $("scramble").value = "";
    setCube(SOLVED);
    setMessage("");
  });
  $("solve-near").addEventListener("click", () => solve(false));
  $("solve-optimal").addEventListener("click", () => solve(true));
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(state.step - 1));
  $("forward").addEventListener("click", () => goTo(state.step + 1));
  $("last").addEventListener("click", () => goTo(state.moves.length));
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (typing) return;
    if (e.key >= "1" && e.key <= "6") choosePaint(FACES[Number(e.key) - 1]);
    if (!$("solution").hidden && e.key === "ArrowRight") goTo(state.step + 1);
    if (!$("solution").hidden && e.key === "ArrowLeft") goTo(state.step - 1);
  });
}

buildPalette();
buildNet();
wire();
draw(state.facelets);
