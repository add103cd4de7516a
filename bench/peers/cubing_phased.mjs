// Our driver (no peer code) for the phased solvers reachable from Node: cubing.js (npm package
// `cubing`) and twips (cubing/twsearch's Rust CLI, `twips`). Run by cubingjs-phased.sh and
// twips-phased.sh, which say where the peers come from.
//
//   node cubing_phased.mjs CUBING_DIR solve-minx INPUTS [WARMUP]
//   node cubing_phased.mjs CUBING_DIR random EVENT COUNT
//   node cubing_phased.mjs CUBING_DIR twips TWIPS_BIN PUZZLE INPUTS
//
// CUBING_DIR is a folder with node_modules/cubing (cubing.js is also what checks every answer
// here, with its KPuzzle models).
//
// solve-minx: each line of INPUTS is a megaminx scramble in WCA notation (R++ D-- ... U');
//   cubing.js's solveMegaminx (its public `cubing/search` solver for a given megaminx pattern)
//   solves it. Length: face turns, any amount (72 or 144 degrees) counting 1; whole-puzzle
//   rotations (Uv, Lv, ...) not counted.
// random: EVENT in 444, sq1, fto, minx (or any event cubing.js scrambles): cubing.js's
//   randomScrambleForEvent, prefetching off, COUNT times: its random-state scrambles are the
//   inverse of its solve of a random state, so the time is a random state plus its solve. The
//   first scramble (tables built in the worker) is reported as init_s and not in the stats.
//   cubing.js's 444 scramble is a random-state 3x3x3 scramble followed by TPR's 4x4x4 one (the
//   csTimer port), so its length and time include both.
// twips: one `twips solve-known-puzzle PUZZLE ALG` process per input (PUZZLE: 4x4x4, square1,
//   megaminx, ...; twips has no batch mode for this, so every solve pays its start-up and
//   tables); the time is that process's wall time. init_s: one process on a one-move scramble
//   first, for an idea of the start-up share. Square-1 input in WCA notation is rewritten into
//   twips's U_SQ_ D_SQ_ / moves.
//
// Lengths: 4x4x4 outer-block turns (Uw, 3Rw ... count 1, rotations not); Square-1 twists (/),
// with the WCA metric (each (x,y) and / count 1) as mean_wca_len; megaminx as above; FTO face
// turns. Output lines as in PeerStats.java:
//   <index> TAB <length> TAB <ms> TAB <solution or scramble>
//   # summary peer=P metric=M count=N mean_len=L max_len=X median_ms=A mean_ms=B max_ms=C total_s=T init_s=I
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { cubingLoader } from "./cubing_load.mjs";

const [cubingDir, mode, ...rest] = process.argv.slice(2);
if (!cubingDir || !mode) {
  console.error("usage: cubing_phased.mjs CUBING_DIR solve-minx INPUTS [WARMUP] | random EVENT COUNT | twips TWIPS_BIN PUZZLE INPUTS");
  process.exit(2);
}

const load = cubingLoader(cubingDir);

function readInputs(path) {
  return readFileSync(path, "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
}

const tokens = (s) => s.trim().split(/\s+/).filter((t) => t);
const isRotation = (t) => /^[xyz]['2]*$/.test(t) || /^[A-Z]+v\d*'?$/.test(t);

function lengthOf(kind, alg) {
  if (kind === "sq1") {
    return (alg.match(/\//g) || []).length;
  }
  return tokens(alg.replace(/[()]/g, " ")).filter((t) => !isRotation(t)).length;
}
function wcaSq1Length(alg) {
  return (alg.match(/\([^)]*\)|\//g) || []).length;
}

class Stats {
  constructor(peer, metric) {
    this.peer = peer;
    this.metric = metric;
    this.ms = [];
    this.lens = [];
  }
  record(i, len, ms, text) {
    this.ms.push(ms);
    this.lens.push(len);
    console.log(`${i}\t${len}\t${ms.toFixed(3)}\t${text.replace(/\s+/g, " ").trim()}`);
  }
  summary(initS, totalS, extra = "") {
    const n = this.ms.length;
    const a = [...this.ms].sort((x, y) => x - y);
    const median = n === 0 ? 0 : n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    const mean = n ? this.ms.reduce((x, y) => x + y, 0) / n : 0;
    const meanLen = n ? this.lens.reduce((x, y) => x + y, 0) / n : 0;
    console.log(
      `# summary peer=${this.peer} metric=${this.metric} count=${n} mean_len=${meanLen.toFixed(2)} max_len=${n ? Math.max(...this.lens) : 0}` +
        ` median_ms=${median.toFixed(3)} mean_ms=${mean.toFixed(3)} max_ms=${n ? a[n - 1].toFixed(3) : 0} total_s=${totalS.toFixed(3)} init_s=${initS.toFixed(3)}` +
        (extra ? " " + extra : ""),
    );
  }
}

// Puzzle models (cubing.js KPuzzle) and the solved checks.
const PUZZLE_OF = { "4x4x4": "4x4x4", "444": "4x4x4", square1: "square1", sq1: "square1", megaminx: "megaminx", minx: "megaminx", fto: "fto" };
const KIND_OF = { "4x4x4": "444", square1: "sq1", megaminx: "minx", fto: "fto" };

function solvedIgnoring(pattern, solved, ignoreOrientationOf = []) {
  for (const [orbit, data] of Object.entries(solved.patternData)) {
    const got = pattern.patternData[orbit];
    for (let i = 0; i < data.pieces.length; i++) {
      if (got.pieces[i] !== data.pieces[i]) return false;
      if (!ignoreOrientationOf.includes(orbit) && got.orientation[i] !== data.orientation[i]) return false;
    }
  }
  return true;
}

// 4x4x4: corners and wings in place, each centre piece on its own face (cubing.js tells the
// four same-coloured centres apart; the puzzle does not), in any of the 24 orientations.
const ROTATIONS = ["", "x", "x2", "x'", "z", "z'"].flatMap((a) => ["", "y", "y2", "y'"].map((b) => `${a} ${b}`.trim()));
function solved444(pattern, solved) {
  return ROTATIONS.some((rot) => {
    const p = rot ? pattern.applyAlg(rot) : pattern;
    if (!cornersAndWings(p, solved)) return false;
    const c = p.patternData.CENTERS.pieces;
    return c.every((piece, slot) => Math.floor(piece / 4) === Math.floor(slot / 4));
  });
}
function cornersAndWings(p, solved) {
  for (const orbit of ["CORNERS", "EDGES"]) {
    const got = p.patternData[orbit], want = solved.patternData[orbit];
    for (let i = 0; i < want.pieces.length; i++) {
      if (got.pieces[i] !== want.pieces[i] || got.orientation[i] !== want.orientation[i]) return false;
    }
  }
  return true;
}

function isSolved(kpuzzle, puzzle, pattern) {
  const solved = kpuzzle.defaultPattern();
  if (puzzle === "megaminx") return solvedIgnoring(pattern, solved, ["CENTERS"]);
  if (puzzle === "4x4x4") return solved444(pattern, solved);
  if (pattern.isIdentical(solved)) return true;
  try {
    return pattern.experimentalIsSolved({ ignorePuzzleOrientation: true, ignoreCenterOrientation: true });
  } catch {
    return false;
  }
}

function toTwipsSq1(alg) {
  // "(x,y)" -> U_SQ_x D_SQ_y (negative amounts as x'), "/" stays.
  const out = [];
  const re = /\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|\//g;
  let m;
  while ((m = re.exec(alg))) {
    if (m[0] === "/") {
      out.push("/");
      continue;
    }
    for (const [face, v] of [["U", +m[1]], ["D", +m[2]]]) {
      if (v !== 0) out.push(`${face}_SQ_${Math.abs(v)}${v < 0 ? "'" : ""}`);
    }
  }
  return out.join(" ");
}

const { puzzles } = await load("./puzzles");

if (mode === "solve-minx") {
  const [inputsPath, warmArg] = rest;
  const { solveMegaminx, setSearchDebug } = await load("./search");
  setSearchDebug({ logPerf: false, scramblePrefetchLevel: "none" });
  const kpuzzle = await puzzles["megaminx"].kpuzzle();
  const inputs = readInputs(inputsPath);
  let t0 = performance.now();
  // The first call starts the worker and builds the solver's tables: timed as init on a
  // one-move pattern.
  await solveMegaminx(kpuzzle.defaultPattern().applyAlg("R++"));
  const initS = (performance.now() - t0) / 1000;
  for (let i = 0; i < Math.min(+(warmArg || 0), inputs.length); i++) {
    await solveMegaminx(kpuzzle.defaultPattern().applyAlg(inputs[i]));
  }
  const stats = new Stats("cubingjs-minx", "face-turns");
  const all = performance.now();
  for (let i = 0; i < inputs.length; i++) {
    const pattern = kpuzzle.defaultPattern().applyAlg(inputs[i]);
    const t = performance.now();
    const sol = (await solveMegaminx(pattern)).toString();
    const ms = performance.now() - t;
    if (!isSolved(kpuzzle, "megaminx", pattern.applyAlg(sol))) {
      throw new Error(`input ${i + 1}: cubing.js's answer does not solve it: ${sol}`);
    }
    stats.record(i + 1, lengthOf("minx", sol), ms, sol);
  }
  stats.summary(initS, (performance.now() - all) / 1000);
} else if (mode === "random") {
  const [event, countArg] = rest;
  const count = +countArg;
  const { randomScrambleForEvent } = await load("./scramble");
  const { setSearchDebug } = await load("./search");
  setSearchDebug({ logPerf: false, scramblePrefetchLevel: "none" });
  const kind = PUZZLE_OF[event] ? KIND_OF[PUZZLE_OF[event]] : event;
  let t0 = performance.now();
  await randomScrambleForEvent(event);
  const initS = (performance.now() - t0) / 1000;
  const stats = new Stats(`cubingjs-${event}-random`, kind === "sq1" ? "twists" : kind === "444" ? "obtm" : "face-turns");
  let wca = 0;
  const all = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const s = (await randomScrambleForEvent(event)).toString();
    const ms = performance.now() - t;
    if (kind === "sq1") wca += wcaSq1Length(s);
    stats.record(i + 1, lengthOf(kind, s), ms, s);
  }
  stats.summary(initS, (performance.now() - all) / 1000, kind === "sq1" ? `mean_wca_len=${(wca / Math.max(1, count)).toFixed(2)}` : "");
} else if (mode === "twips") {
  const [bin, puzzleArg, inputsPath] = rest;
  const puzzle = PUZZLE_OF[puzzleArg] || puzzleArg;
  const kind = KIND_OF[puzzle] || puzzle;
  const kpuzzle = await puzzles[puzzle].kpuzzle();
  const inputs = readInputs(inputsPath);
  const run = (alg) => {
    const arg = kind === "sq1" ? toTwipsSq1(alg) : alg;
    const t = performance.now();
    const r = spawnSync(bin, ["solve-known-puzzle", "--print-link", "false", puzzle, arg], { encoding: "utf8", maxBuffer: 1 << 26 });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`twips failed (${r.status}) on ${arg}: ${r.stderr.slice(-2000)}`);
    return [r.stdout.trim().split("\n")[0], ms];
  };
  const [, initMs] = run(kind === "sq1" ? "/" : kind === "minx" ? "R++" : "R");
  const stats = new Stats(`twips-${puzzle}`, kind === "sq1" ? "twists" : kind === "444" ? "obtm" : "face-turns");
  let wca = 0;
  const all = performance.now();
  for (let i = 0; i < inputs.length; i++) {
    const [sol, ms] = run(inputs[i]);
    const pattern = kpuzzle.defaultPattern().applyAlg(inputs[i]).applyAlg(sol);
    if (!isSolved(kpuzzle, puzzle, pattern)) {
      throw new Error(`input ${i + 1}: twips's answer does not solve it: ${sol}`);
    }
    if (kind === "sq1") wca += wcaSq1Length(sol);
    stats.record(i + 1, lengthOf(kind, sol), ms, sol);
  }
  stats.summary(initMs / 1000, (performance.now() - all) / 1000, kind === "sq1" ? `mean_wca_len=${(wca / Math.max(1, inputs.length)).toFixed(2)}` : "");
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
process.exit(0);
