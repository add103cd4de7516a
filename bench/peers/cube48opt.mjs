// cube48opt (cs0x7f's optimal 3x3x3 solver, half turns) on a file of scrambles, in Node.
// Nothing here downloads or builds the peer. Its only public form is the WebAssembly
// build in the MIT-licensed repository cs0x7f/cubeopt-wasm on GitHub (the solvers behind
// cstimer.net/cubeopt): clone it anywhere outside this repository; each variation N is a
// pair cube48optN.mjs + cube48optN.wasm side by side (N = 1..9, tables of 30 MB to
// 15.6 GB). Then:
//
//   node bench/peers/cube48opt.mjs BUILD.mjs TABLE THREADS SCRAMBLES [--index-from N]
//
//   BUILD.mjs    a variation's .mjs, e.g. /tmp/peers/cubeopt-wasm/cube48opt6.mjs
//   TABLE        its pruning table saved by an earlier run, loaded into the module's
//                memory as its web worker does (the table's bytes at _get_mem_ptr(),
//                then init(0, THREADS), which checks the table's checksum); if the file
//                is missing, the table is built (init(THREADS, THREADS): cube48opt3
//                about 2 minutes here, cube48opt6 about half an hour) and saved there
//                first. Keep it outside the repository: it is the size of the table.
//   THREADS      threads per cube (the solver's own pthreads, i.e. worker threads)
//   SCRAMBLES    one scramble a line in face turns (R R2 R'; R1/R3 read as R/R'),
//                blank and `#` lines skipped; `-` for standard input, read a line at
//                a time, each cube answered before the next line is read
//   --index-from N  number the cubes from N (default 1), for one-cube files
//   --build-only    build or load the table, then stop
//
// The variations 8 and 9 use 64-bit WebAssembly memory: run Node with
// --experimental-wasm-memory64, on a Node whose V8 accepts a memory64 memory over 4 GB
// with the `address: "i64"` descriptor their glue code uses (Node 20's V8 11.3 does not:
// it wants `index: "i64"` and caps such a memory at 65,536 pages, 4 GB).
//
// Each cube is one solve_scramble(scramble, THREADS, 1, 1) call: all threads on that one
// cube, one cube at a time, the table already in memory. Its time is the solver's own
// (tt, below: its search, as cubedb's stderr time is its own search), the call's wall
// time beside it (some 30-40 ms more here: the threads' start); its nodes are the first
// count of the solver's own line
//   "CubeN finished in L, NODES/X node(s), tt=T ms, ... ns/node, ... ns/probe,
//    ... inv/node, ... probe/node ... split, ... pnode"
// as cs0x7f/cube_solver_test's runtest.sh reads it; that line goes to standard error
// as it is, prefixed "stats N:". Each solution is checked here on a cubie model (the
// scramble then the solution leaves the cube solved) and its length against the
// solver's.
//
// Standard output: a header, then one line per cube
//   N LENGTH NODES SECONDS NS_PER_NODE WALL_SECONDS SOLUTION...
// (NS_PER_NODE: SECONDS over NODES, the solver's own ns/node figure), then `#` summary
// lines: median and mean seconds, median and mean nodes, ns per node over the run, and
// the solver's probes and inverse probes per node.
// Exit 1 if a cube is unsolved or a solution fails its check.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

// Set before the module loads: it sizes nothing here, but the glue reads it. Node 21 and
// later have their own (a getter, which cannot be assigned).
if (globalThis.navigator === undefined) {
    globalThis.navigator = { hardwareConcurrency: 2 };
}

function usage(msg) {
    if (msg) console.error(`cube48opt.mjs: ${msg}`);
    console.error('usage: node cube48opt.mjs BUILD.mjs TABLE THREADS SCRAMBLES [--index-from N] | BUILD.mjs TABLE THREADS --build-only');
    process.exit(2);
}

const args = process.argv.slice(2);
let indexFrom = 1;
let buildOnly = false;
const pos = [];
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--index-from') indexFrom = Number(args[++i]);
    else if (args[i] === '--build-only') buildOnly = true;
    else pos.push(args[i]);
}
if (pos.length !== (buildOnly ? 3 : 4)) usage();
const [buildPath, tablePath, threadsArg, scramblesPath] = pos;
const threads = Number(threadsArg);
if (!Number.isInteger(threads) || threads < 1) usage(`bad THREADS ${threadsArg}`);
if (!Number.isInteger(indexFrom) || indexFrom < 0) usage('bad --index-from');
if (!fs.existsSync(buildPath)) usage(`no ${buildPath}`);

// ---- A cubie model, to check solutions (Kociemba's corner and edge numbering). ----
// Corners URF UFL ULB UBR DFR DLF DBL DRB; edges UR UF UL UB DR DF DL DB FR FL BL BR.
const MOVES = {
    U: { cp: [3, 0, 1, 2, 4, 5, 6, 7], co: [0, 0, 0, 0, 0, 0, 0, 0],
         ep: [3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11], eo: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
    R: { cp: [4, 1, 2, 0, 7, 5, 6, 3], co: [2, 0, 0, 1, 1, 0, 0, 2],
         ep: [8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0], eo: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
    F: { cp: [1, 5, 2, 3, 0, 4, 6, 7], co: [1, 2, 0, 0, 2, 1, 0, 0],
         ep: [0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11], eo: [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0] },
    D: { cp: [0, 1, 2, 3, 5, 6, 7, 4], co: [0, 0, 0, 0, 0, 0, 0, 0],
         ep: [0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11], eo: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
    L: { cp: [0, 2, 6, 3, 4, 1, 5, 7], co: [0, 1, 2, 0, 0, 2, 1, 0],
         ep: [0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11], eo: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] },
    B: { cp: [0, 1, 3, 7, 4, 5, 2, 6], co: [0, 0, 1, 2, 0, 0, 2, 1],
         ep: [0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7], eo: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1] },
};

function solvedCube() {
    return { cp: [0, 1, 2, 3, 4, 5, 6, 7], co: new Array(8).fill(0),
             ep: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], eo: new Array(12).fill(0) };
}

function applyQuarter(c, m) {
    return {
        cp: m.cp.map((p) => c.cp[p]),
        co: m.cp.map((p, i) => (c.co[p] + m.co[i]) % 3),
        ep: m.ep.map((p) => c.ep[p]),
        eo: m.ep.map((p, i) => (c.eo[p] + m.eo[i]) % 2),
    };
}

// "R U2 F' ..." -> list of [face, quarter turns]; throws on anything else.
function parseMoves(s) {
    const out = [];
    for (const tok of s.trim().split(/\s+/).filter((t) => t.length > 0)) {
        const m = /^([URFDLB])(2|'|1|3)?$/.exec(tok);
        if (!m) throw new Error(`not a face turn: ${tok}`);
        const n = m[2] === '2' ? 2 : m[2] === "'" || m[2] === '3' ? 3 : 1;
        out.push([m[1], n]);
    }
    return out;
}

function applyMoves(c, moves) {
    for (const [face, n] of moves) for (let k = 0; k < n; k++) c = applyQuarter(c, MOVES[face]);
    return c;
}

function isSolved(c) {
    return c.cp.every((p, i) => p === i) && c.co.every((o) => o === 0) &&
           c.ep.every((p, i) => p === i) && c.eo.every((o) => o === 0);
}

// The model checks itself once: each face turned four times is the identity, a sexy move
// six times too, (R U) has order 105, and Reid's 20-move superflip flips every edge in
// place and leaves the corners alone (the only check here that a face's pieces go round
// the right way for every face: D's edges once went the wrong way unnoticed).
(function selfTest() {
    for (const f of 'URFDLB') {
        if (!isSolved(applyMoves(solvedCube(), parseMoves(`${f} ${f} ${f} ${f}`)))) throw new Error(`model: ${f}4`);
        if (isSolved(applyMoves(solvedCube(), parseMoves(f)))) throw new Error(`model: ${f}`);
    }
    if (!isSolved(applyMoves(solvedCube(), parseMoves("R U R' U' ".repeat(6))))) throw new Error('model: sexy move');
    let c = solvedCube();
    for (let i = 1; i <= 105; i++) {
        c = applyMoves(c, parseMoves('R U'));
        if (isSolved(c) !== (i === 105)) throw new Error('model: (R U) order');
    }
    const flip = applyMoves(solvedCube(), parseMoves("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2"));
    if (!flip.cp.every((p, i) => p === i) || !flip.co.every((o) => o === 0) ||
        !flip.ep.every((p, i) => p === i) || !flip.eo.every((o) => o === 1)) throw new Error('model: superflip');
})();

// ---- The peer. ----
let sink = null; // where the solver's printed lines go while a cube is solved
const createModule = (await import(pathToFileURL(path.resolve(buildPath)).href)).default;
let mod;
try {
    mod = await createModule({
        print: (t) => { if (sink) sink.push(t); else console.error(`cube48opt: ${t}`); },
        printErr: (t) => console.error(`cube48opt (stderr): ${t}`),
    });
} catch (e) {
    console.error(`cube48opt.mjs: ${buildPath} did not start: ${e.message}`);
    console.error('(variations 8 and 9 need --experimental-wasm-memory64 and a V8 with memory64 over 4 GB)');
    process.exit(2);
}
const tableName = mod.get_table_name();
const tableSize = Number(mod.get_table_size());
console.error(`cube48opt: ${path.basename(buildPath)}, table ${tableName}, ${tableSize} bytes`);

function heapView() {
    // A std::string return goes through the glue's growMemViews(), which refreshes
    // Module.HEAPU8 after the memory grew (the table allocation grows it).
    mod.get_table_name();
    return mod.HEAPU8;
}

const t0 = performance.now();
if (fs.existsSync(tablePath)) {
    const st = fs.statSync(tablePath);
    if (st.size !== tableSize) {
        console.error(`cube48opt.mjs: ${tablePath} has ${st.size} bytes, ${tableName} has ${tableSize}`);
        process.exit(2);
    }
    const base = Number(mod._get_mem_ptr());
    const heap = heapView();
    if (heap.length < base + tableSize) {
        console.error(`cube48opt.mjs: module memory ${heap.length} bytes, table needs ${base + tableSize}`);
        process.exit(2);
    }
    const fd = fs.openSync(tablePath, 'r');
    for (let off = 0; off < tableSize;) {
        const n = fs.readSync(fd, heap, base + off, Math.min(64 << 20, tableSize - off), off);
        if (n <= 0) { console.error(`cube48opt.mjs: short read of ${tablePath}`); process.exit(2); }
        off += n;
    }
    fs.closeSync(fd);
    if (mod.init(0, threads) !== 0 || mod.init(-1, 1) !== 0) {
        console.error(`cube48opt.mjs: ${tablePath} was refused (checksum?)`);
        process.exit(2);
    }
    console.error(`cube48opt: table loaded from ${tablePath} in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
} else {
    if (mod.init(threads, threads) !== 0 || mod.init(-1, 1) !== 0) {
        console.error('cube48opt.mjs: init failed');
        process.exit(2);
    }
    const built = (performance.now() - t0) / 1000;
    const base = Number(mod._get_mem_ptr());
    const heap = heapView();
    const tmp = `${tablePath}.tmp-${process.pid}`;
    const fd = fs.openSync(tmp, 'w');
    for (let off = 0; off < tableSize;) {
        off += fs.writeSync(fd, heap, base + off, Math.min(64 << 20, tableSize - off));
    }
    fs.closeSync(fd);
    fs.renameSync(tmp, tablePath);
    console.error(`cube48opt: table built in ${built.toFixed(1)} s with ${threads} threads, saved to ${tablePath}`);
}
if (buildOnly) process.exit(0);

function normalize(s) {
    return s.trim().replace(/([URFDLB])1/g, '$1').replace(/([URFDLB])3/g, "$1'");
}

const FINISHED = /^Cube\d+ (finished|unsolved) in (\d+), (\d+)\/(\d+) node\(s\), tt=([\d.]+) ms, ([\d.]+)ns\/node, ([\d.]+)ns\/probe, ([\d.]+) inv\/node, ([\d.]+) probe\/node (\d+) split, (\d+) pnode/;

const rows = [];
let bad = 0;
function solveOne(scramble, n) {
    parseMoves(scramble); // refuse anything but face turns before the solver sees it
    sink = [];
    const start = performance.now();
    mod.solve_scramble(scramble, threads, 1, 1);
    const secs = (performance.now() - start) / 1000;
    const out = sink;
    sink = null;
    const solLine = out.find((t) => t.startsWith('Solution found!:'));
    const stat = out.map((t) => FINISHED.exec(t.trim())).find((m) => m);
    if (!stat || stat[1] !== 'finished' || solLine === undefined) {
        console.error(`cube ${n}: no solution; the solver printed:\n${out.join('\n')}`);
        console.log(`# cube ${n} unsolved`);
        bad++;
        return;
    }
    console.error(`stats ${n}: ${stat[0]}`);
    const solution = solLine.slice('Solution found!:'.length).trim().split(/\s+/).filter((t) => t).join(' ');
    const length = Number(stat[2]);
    const nodes = Number(stat[3]);
    const moves = parseMoves(solution);
    const ok = moves.length === length && isSolved(applyMoves(applyMoves(solvedCube(), parseMoves(scramble)), moves));
    if (!ok) {
        console.error(`cube ${n}: solution "${solution}" (${moves.length} moves, solver says ${length}) does NOT solve "${scramble}"`);
        bad++;
    }
    const own = Number(stat[5]) / 1000;
    const nsPerNode = own * 1e9 / Math.max(nodes, 1);
    rows.push({ own, nodes, length, wall: secs, probe: Number(stat[9]), inv: Number(stat[8]) });
    console.log(`${n} ${length} ${nodes} ${own.toFixed(3)} ${nsPerNode.toFixed(2)} ${secs.toFixed(3)} ${solution}`);
}

console.log('# cube length nodes seconds ns/node wall solution');
if (scramblesPath === '-') {
    // A line at a time, each answered before the next is read: a caller can alternate
    // with another solver cube by cube, this process keeping its table in memory.
    const readline = await import('node:readline');
    let n = indexFrom;
    for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        const s = normalize(line);
        if (s.length === 0 || s.startsWith('#')) continue;
        solveOne(s, n++);
    }
} else {
    fs.readFileSync(scramblesPath, 'utf8').split('\n').map(normalize)
        .filter((s) => s.length > 0 && !s.startsWith('#'))
        .forEach((s, i) => solveOne(s, indexFrom + i));
}

function median(v) {
    const s = [...v].sort((a, b) => a - b);
    const k = s.length;
    return k === 0 ? NaN : k % 2 ? s[(k - 1) / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
}
if (rows.length > 0) {
    const sum = (f) => rows.reduce((a, r) => a + f(r), 0);
    const k = rows.length;
    console.log(`# ${path.basename(buildPath, '.mjs')}, ${threads} threads, ${k} cubes: median ${median(rows.map((r) => r.own)).toFixed(3)} s, mean ${(sum((r) => r.own) / k).toFixed(3)} s (the solver's own times; wall: median ${median(rows.map((r) => r.wall)).toFixed(3)} s, mean ${(sum((r) => r.wall) / k).toFixed(3)} s)`);
    console.log(`# nodes: median ${median(rows.map((r) => r.nodes)).toFixed(0)}, mean ${(sum((r) => r.nodes) / k).toFixed(0)}; ${(sum((r) => r.own) * 1e9 / sum((r) => r.nodes)).toFixed(2)} ns per node over the run`);
    console.log(`# ${(sum((r) => r.probe * r.nodes) / sum((r) => r.nodes)).toFixed(3)} probes per node, ${(sum((r) => r.inv * r.nodes) / sum((r) => r.nodes)).toFixed(3)} inverse probes per node (the solver's own figures, weighted by nodes); mean length ${(sum((r) => r.length) / k).toFixed(2)}`);
}
// The last line says how the run went: a caller that cannot wait for this process to
// end (Node 26 may hang in its exit once the solver's threads have run) reads it.
console.log(`# checked ${rows.length} cubes, ${bad} failed`);
process.exit(bad ? 1 : 0);
