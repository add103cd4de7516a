// Our driver (no peer code) for csTimer's scramblers, as its own `make module` packs them
// (npm_export/cstimer_module.js: getScramble(type, length), setSeed). Run by
// cstimer-scrambles.sh.
//
//   node cstimer_scrambles.cjs MODULE EVENT COUNT OUT [SEED]
//
// EVENT: a WCA event id, mapped to csTimer's scramble type and length as csTimer's own "WCA"
// menu does (src/lang/en-us.js, scrdata): 222 222so, 333 333, 444 444wca, 555 555wca 60,
// 666 666wca 80, 777 777wca 100, 333bf 333ni, 333fm 333fm, 333oh 333oh, 333mbf 333ni (one cube
// a scramble; csTimer's own mbld type r3ni numbers a batch), 444bf 444bld, 555bf 555bld 60,
// clock clkwca, minx mgmp 70, pyram pyrso 10, skewb skbso, sq1 sqrs, fto ftoso; or
// csTimer's own TYPE:LENGTH. Writes COUNT scrambles to OUT, one a line (megaminx's line breaks
// and csTimer's leading and trailing spaces folded), and prints the summary line of
// scramble_stats.cjs. SEED: csTimer's setSeed (else it seeds itself from crypto).
const { report } = require("./scramble_stats.cjs");
const t0 = performance.now();
const [modulePath, event, countArg, out, seed] = process.argv.slice(2);
if (!out) {
  console.error("usage: cstimer_scrambles.cjs MODULE EVENT COUNT OUT [SEED]");
  process.exit(2);
}
const TYPES = {
  "222": ["222so", 0], "333": ["333", 0], "444": ["444wca", 0], "555": ["555wca", 60],
  "666": ["666wca", 80], "777": ["777wca", 100], "333bf": ["333ni", 0], "333fm": ["333fm", 0],
  "333oh": ["333oh", 0], "333mbf": ["333ni", 0], "444bf": ["444bld", 40], "555bf": ["555bld", 60],
  clock: ["clkwca", 0], minx: ["mgmp", 70], pyram: ["pyrso", 10], skewb: ["skbso", 0],
  sq1: ["sqrs", 0], fto: ["ftoso", 0],
};
const [type, len] = TYPES[event] || [event.split(":")[0], +(event.split(":")[1] || 0)];
const cstimer = require(modulePath);
if (seed !== undefined) cstimer.setSeed(seed);
const count = +countArg;
const scrambles = [];
const ms = [];
let processToFirst = 0;
for (let i = 0; i < count; i++) {
  const t = i === 0 ? t0 : performance.now();
  scrambles.push(cstimer.getScramble(type, len));
  ms.push(performance.now() - t);
  if (i === 0) processToFirst = performance.now();
}
report("cstimer", event, scrambles, ms, processToFirst, out, `type=${type} length=${len}`);
