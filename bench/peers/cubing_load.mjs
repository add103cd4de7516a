// Loads an entry point of cubing.js (`./alg`, `./puzzles`, `./scramble`, `./search`) from
// the npm package installed under CUBING_DIR/node_modules/cubing, by the file its
// package.json exports for it. Shared by the drivers of cubing.js in this folder.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export function cubingLoader(cubingDir) {
  const root = join(cubingDir, "node_modules", "cubing");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  return (sub) => import(pathToFileURL(join(root, pkg.exports[sub].import)).href);
}
