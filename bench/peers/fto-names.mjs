// Reads "WORDS<TAB>ORDER" lines (fto_names.py) on stdin and compares each order with the
// order cubing.js's FTO gives the same words; prints the count of each, exit 1 on any
// difference.
//   node fto-names.mjs CUBING_DIR < words.txt
import { readFileSync } from "node:fs";
import { cubingLoader } from "./cubing_load.mjs";

const [cubingDir] = process.argv.slice(2);
if (!cubingDir) {
  console.error("usage: fto-names.mjs CUBING_DIR < words.txt");
  process.exit(2);
}

const load = cubingLoader(cubingDir);

const { Alg } = await load("./alg");
const { puzzles } = await load("./puzzles");
const kpuzzle = await puzzles["fto"].kpuzzle();
let same = 0;
let other = 0;
for (const line of readFileSync(0, "utf8").trim().split("\n")) {
  const [words, order] = line.split("\t");
  const theirs = kpuzzle.algToTransformation(new Alg(words)).repetitionOrder();
  if (theirs === Number(order)) {
    same++;
  } else {
    other++;
    console.log(`differs: ${words}: cubedb ${order}, cubing.js ${theirs}`);
  }
}
console.log(`# summary peer=cubing.js words=${same + other} same_order=${same} other_order=${other}`);
process.exit(other === 0 ? 0 : 1);
