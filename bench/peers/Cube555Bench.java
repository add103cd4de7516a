// Our driver for cube555 (cs0x7f, package cs.cube555: five-phase reduction, then min2phase from
// the twophase.jar that cube555 ships in lib/): only the peers' public API. Compiled and run by
// cube555.sh, which says where the peer comes from.
//
//   java Cube555Bench solve INPUTS [WARMUP]   one WCA-notation 5x5x5 scramble a line
//   java Cube555Bench random COUNT SEED       cube555's random states; prints scrambles (inverses)
//   java Cube555Bench selftest COUNT SEED     cube555's random facelets, solved and checked here
//
// solve: each scramble is applied here (NxnCube) to a solved cube (turned so that its centres
// face the usual way), the facelets go to Search.solveReduction(facelets, 0), the 3x3x3 it
// returns to cs.min2phase.Search.solution(f, 21, Integer.MAX_VALUE, 500, 0) (the call cube555's
// own GUI makes), and the whole answer is checked by applying it after the scramble. Printed per
// cube: index, length in the outer-block turn metric (cube555's u r f d l b, printed here as
// Uw Rw Fw Dw Lw Bw, count 1 each, as its GUI counts), ms (reduction plus 3x3x3), solution.
// The WARMUP first inputs are solved once untimed before the timed pass.
//
// Tables: cube555 reads its pruning tables (about 240 MB) from the working directory, or builds
// and writes them there on its first run.
import java.util.List;
import java.util.Random;

public class Cube555Bench {
    static cs.cube555.Search search;
    static cs.min2phase.Search search333;

    /** cube555's answer for one facelet string, in WCA notation (u -> Uw, ...). */
    static String solve(String facelets) {
        String[] ret = search.solveReduction(facelets, 0);
        if (ret[0].startsWith("Error")) {
            throw new IllegalStateException("cube555: " + ret[0]);
        }
        String s333 = search333.solution(ret[1], 21, Integer.MAX_VALUE, 500, 0);
        if (s333.startsWith("Error")) {
            throw new IllegalStateException("min2phase: " + s333);
        }
        StringBuilder sb = new StringBuilder();
        for (String t : NxnCube.tokens(ret[0] + " " + s333)) {
            char c = t.charAt(0);
            if ("urfdlb".indexOf(c) >= 0) {
                t = Character.toUpperCase(c) + "w" + t.substring(1);
            }
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(t);
        }
        return sb.toString();
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Cube555Bench solve INPUTS [WARMUP] | random COUNT SEED | selftest COUNT SEED");
            System.exit(2);
        }
        PeerStats.muzzle();
        long t0 = System.nanoTime();
        cs.cube555.Search.init();
        search = new cs.cube555.Search();
        search333 = new cs.min2phase.Search();
        cs.min2phase.Search.init();
        double initS = (System.nanoTime() - t0) / 1e9;
        if (args[0].equals("solve")) {
            List<String> inputs = PeerStats.readInputs(args[1]);
            int warm = args.length > 2 ? Integer.parseInt(args[2]) : 0;
            for (int i = 0; i < Math.min(warm, inputs.size()); i++) {
                NxnCube cube = new NxnCube(5);
                cube.apply(inputs.get(i));
                cube.orientCentres();
                solve(cube.facelets());
            }
            PeerStats stats = new PeerStats("cube555", "obtm");
            long all = System.nanoTime();
            for (int i = 0; i < inputs.size(); i++) {
                NxnCube cube = new NxnCube(5);
                cube.apply(inputs.get(i));
                cube.orientCentres();
                String facelets = cube.facelets();
                long t = System.nanoTime();
                String sol = solve(facelets);
                double ms = (System.nanoTime() - t) / 1e6;
                cube.apply(sol);
                if (!cube.isSolved()) {
                    throw new IllegalStateException("input " + (i + 1) + ": cube555's answer does not solve it: " + sol);
                }
                stats.record(i + 1, cube.countTurns(sol), ms, sol);
            }
            stats.summary(initS, (System.nanoTime() - all) / 1e9);
        } else if (args[0].equals("random") || args[0].equals("selftest")) {
            int count = Integer.parseInt(args[1]);
            Random r = new Random(args.length > 2 ? Long.parseLong(args[2]) : 1);
            boolean self = args[0].equals("selftest");
            PeerStats stats = new PeerStats(self ? "cube555-selftest" : "cube555-random", "obtm");
            long all = System.nanoTime();
            for (int i = 0; i < count; i++) {
                String facelets = cs.cube555.Tools.randomCube(r);
                long t = System.nanoTime();
                String sol = solve(facelets);
                double ms = (System.nanoTime() - t) / 1e6;
                NxnCube cube = new NxnCube(5);
                cube.setFacelets(facelets);
                cube.apply(sol);
                if (!cube.isSolved()) {
                    throw new IllegalStateException("cube " + (i + 1) + ": cube555's answer does not solve it: " + sol);
                }
                // random: the scramble is the answer's inverse (it brings a solved cube to the state).
                String out = self ? sol : NxnCube.invert(sol);
                stats.record(i + 1, cube.countTurns(out), ms, out);
            }
            stats.summary(initS, (System.nanoTime() - all) / 1e9);
        } else {
            System.err.println("unknown mode " + args[0]);
            System.exit(2);
        }
    }
}
