// Our driver for TPR-4x4x4-Solver (cs0x7f, package cs.threephase, with min2phase in its
// twophase.jar): only the peer's public API. Compiled and run by tpr444.sh, which says where the
// peer comes from.
//
//   java Tpr444Bench solve INPUTS [WARMUP]   one WCA-notation 4x4x4 scramble a line
//   java Tpr444Bench random COUNT SEED       TPR's own random-state scrambles (TNoodle's 444 way)
//   java Tpr444Bench selftest COUNT SEED     TPR's random facelets, solved and checked here
//
// solve: each scramble is applied here (NxnCube) to a solved cube, the facelets go to
// Search.solution(facelets), and the answer is checked by applying it after the scramble. Printed
// per cube: index, length in the outer-block turn metric (U, Uw, Uw2 ... each count 1; TPR's
// closing whole-cube rotation is not counted), ms, solution. The WARMUP first inputs are solved
// once untimed before the timed pass.
// random: Search with inverse_solution = true and with_rotation = false, as TNoodle's
// FourByFourCubePuzzle uses it, on java.util.Random(SEED): prints the scrambles and the time of
// each (a random state plus its solve). These are only checked to parse (TPR keeps the random
// state to itself); selftest is the check of TPR's answers.
//
// Tables: read from twophase.data and threephase.data in the working directory if they are
// there, else built and written there (TPR's own solver.java does the same).
import java.io.*;
import java.util.List;
import java.util.Random;

public class Tpr444Bench {
    static double init() throws IOException {
        long t0 = System.nanoTime();
        File two = new File("twophase.data"), three = new File("threephase.data");
        if (two.exists() && three.exists()) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(two)))) {
                cs.min2phase.Tools.initFrom(in);
            }
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(three)))) {
                cs.threephase.Tools.initFrom(in);
            }
        } else {
            cs.threephase.Search.init();
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(two)))) {
                cs.min2phase.Tools.saveTo(out);
            }
            try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(three)))) {
                cs.threephase.Tools.saveTo(out);
            }
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: Tpr444Bench solve INPUTS [WARMUP] | random COUNT SEED | selftest COUNT SEED");
            System.exit(2);
        }
        PeerStats.muzzle();
        double initS = init();
        cs.threephase.Search search = new cs.threephase.Search();
        NxnCube cube = new NxnCube(4);
        if (args[0].equals("solve")) {
            List<String> inputs = PeerStats.readInputs(args[1]);
            int warm = args.length > 2 ? Integer.parseInt(args[2]) : 0;
            for (int i = 0; i < Math.min(warm, inputs.size()); i++) {
                cube = new NxnCube(4);
                cube.apply(inputs.get(i));
                search.solution(cube.facelets());
            }
            PeerStats stats = new PeerStats("tpr444", "obtm");
            long all = System.nanoTime();
            for (int i = 0; i < inputs.size(); i++) {
                cube = new NxnCube(4);
                cube.apply(inputs.get(i));
                String facelets = cube.facelets();
                long t = System.nanoTime();
                String sol = search.solution(facelets);
                double ms = (System.nanoTime() - t) / 1e6;
                cube.apply(sol);
                if (!cube.isSolved()) {
                    throw new IllegalStateException("input " + (i + 1) + ": TPR's answer does not solve it: " + sol);
                }
                stats.record(i + 1, cube.countTurns(sol), ms, sol);
            }
            stats.summary(initS, (System.nanoTime() - all) / 1e9);
        } else if (args[0].equals("random") || args[0].equals("selftest")) {
            int count = Integer.parseInt(args[1]);
            Random r = new Random(args.length > 2 ? Long.parseLong(args[2]) : 1);
            boolean self = args[0].equals("selftest");
            if (!self) {
                search.inverse_solution = true;
                search.with_rotation = false;
            }
            PeerStats stats = new PeerStats(self ? "tpr444-selftest" : "tpr444-random", "obtm");
            long all = System.nanoTime();
            for (int i = 0; i < count; i++) {
                String facelets = self ? cs.threephase.Tools.randomCube(r) : null;
                long t = System.nanoTime();
                String out = self ? search.solution(facelets) : search.randomState(r);
                double ms = (System.nanoTime() - t) / 1e6;
                cube = new NxnCube(4);
                if (self) {
                    cube.setFacelets(facelets);
                    cube.apply(out);
                } else {
                    // The scramble's inverse must bring its cube back.
                    cube.apply(out);
                    cube.apply(NxnCube.invert(out));
                }
                if (!cube.isSolved()) {
                    throw new IllegalStateException("cube " + (i + 1) + ": check failed: " + out);
                }
                stats.record(i + 1, cube.countTurns(out), ms, out);
            }
            stats.summary(initS, (System.nanoTime() - all) / 1e9);
        } else {
            System.err.println("unknown mode " + args[0]);
            System.exit(2);
        }
    }
}
