// Our driver (no peer code) for cubing.js's scramblers (npm package `cubing`,
// randomScrambleForEvent from `cubing/scramble`). Run by cubingjs-scrambles.sh.
//
//   node cubingjs_scrambles.mjs CUBING_DIR EVENT COUNT OUT
//
// EVENT: a WCA event id (222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf clock minx
// pyram skewb sq1) or one of cubing.js's others (fto, 333ft, master_tetraminx, kilominx,
// redi_cube, baby_fto). cubing.js's scramble prefetching (a next scramble started in the
// background after each) is turned off, so that each scramble is timed alone. Writes COUNT
// scrambles to OUT, one a line, and prints the summary line of scramble_stats.cjs.
import { createRequire } from "node:module";
import { cubingLoader } from "./cubing_load.mjs";

const [cubingDir, event, countArg, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: cubingjs_scrambles.mjs CUBING_DIR EVENT COUNT OUT");
  process.exit(2);
}
const { report } = createRequire(import.meta.url)("./scramble_stats.cjs");
const load = cubingLoader(cubingDir);

const t0 = performance.now();
const { randomScrambleForEvent } = await load("./scramble");
const { setSearchDebug } = await load("./search");
setSearchDebug({ logPerf: false, scramblePrefetchLevel: "none" });
const count = +countArg;
const scrambles = [];
const ms = [];
let processToFirst = 0;
for (let i = 0; i < count; i++) {
  const t = i === 0 ? t0 : performance.now();
  scrambles.push((await randomScrambleForEvent(event)).toString());
  ms.push(performance.now() - t);
  if (i === 0) processToFirst = performance.now();
}
report("cubingjs", event, scrambles, ms, processToFirst, out);
process.exit(0);
