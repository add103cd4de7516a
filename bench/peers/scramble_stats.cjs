// Our code (no peer code): the summary line the Node scramble drivers in this folder print,
// the same as TnoodleScrambles.java's:
//   # scrambles peer=P event=E count=N process_to_first_ms=A first_ms=B rest_per_s=C
//     rest_mean_ms=D rest_median_ms=E mean_tokens=F
// process_to_first_ms: from the Node process's start (performance.timeOrigin) to the first
// scramble; first_ms: the first scramble alone, from just before the peer is loaded; rest_*:
// scrambles 2..N, their rate and time each; mean_tokens: whitespace-separated tokens a scramble.
const { writeFileSync } = require("node:fs");

function report(peer, event, scrambles, ms, processToFirstMs, out, extra = "") {
  // One scramble a line: every whitespace run (megaminx's line breaks too) becomes one space.
  const lines = scrambles.map((s) => s.replace(/\s+/g, " ").trim());
  writeFileSync(out, lines.join("\n") + "\n");
  const rest = ms.slice(1).sort((a, b) => a - b);
  const sum = rest.reduce((a, b) => a + b, 0);
  const n = rest.length;
  const median = n === 0 ? 0 : n % 2 ? rest[(n - 1) / 2] : (rest[n / 2 - 1] + rest[n / 2]) / 2;
  const tokens = lines.reduce((a, s) => a + (s ? s.split(" ").length : 0), 0) / lines.length;
  console.log(
    `# scrambles peer=${peer} event=${event} count=${lines.length} process_to_first_ms=${processToFirstMs.toFixed(0)}` +
      ` first_ms=${ms[0].toFixed(1)} rest_per_s=${n ? (n / (sum / 1000)).toFixed(2) : 0}` +
      ` rest_mean_ms=${n ? (sum / n).toFixed(3) : 0} rest_median_ms=${median.toFixed(3)} mean_tokens=${tokens.toFixed(2)}` +
      (extra ? " " + extra : ""),
  );
}

module.exports = { report };
