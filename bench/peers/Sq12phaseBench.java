// Our driver for sq12phase (cs0x7f, package cs.sq12phase: Square-1 in two phases, shape and
// parity first, then the rest; the solver TNoodle's sq1 scrambler uses). Compiled and run by
// sq12phase.sh, which says where the peer comes from.
//
//   java Sq12phaseBench solve INPUTS [WARMUP]   one Square-1 scramble a line, WCA notation
//   java Sq12phaseBench random COUNT SEED       sq12phase's random states as scrambles (TNoodle's way)
//   java Sq12phaseBench selftest COUNT SEED     sq12phase's random states, solved and checked here
//
// Input notation: "(x,y)" turns the top layer by x and the bottom layer by y twelfths
// (x, y in -5..6; "(1, 0)" with spaces is read too), "/" is a twist; "(1,0)/ (-3,3)/" (WCA) and
// "(1,0) / (-3,3) /" (TNoodle, sq12phase) are both read. The scramble is applied to a solved
// FullCube with the peer's own move routine (FullCube.doMove is package-private: reached by
// reflection; x -> doMove(x mod 12), y -> doMove(-(y mod 12)), / -> doMove(0), the mapping
// sq12phase's own output follows), every twist checked to be allowed. Then
// Search.solution(cube) (its two-phase search; not solutionOpt) solves it, and the answer is
// applied the same way and checked (FullCube.isSolved, also by reflection).
//
// Printed per input: index, length in twists (slashes, the metric sq12phase's two-phase search
// minimises), ms, solution in sq12phase's notation. The summary adds mean_wca_len: the WCA
// metric (regulation 12c4: each (x,y) and each / count 1).
import java.lang.reflect.Method;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import cs.sq12phase.FullCube;
import cs.sq12phase.Search;

public class Sq12phaseBench {
    static final Pattern MOVE = Pattern.compile("\\(\\s*(-?\\d+)\\s*,\\s*(-?\\d+)\\s*\\)|/");
    static Method doMove, isSolved, getShapeIdx;

    static void apply(FullCube c, String alg) throws Exception {
        Matcher m = MOVE.matcher(alg);
        int end = 0;
        while (m.find()) {
            if (!alg.substring(end, m.start()).trim().isEmpty()) {
                throw new IllegalArgumentException("bad Square-1 alg at \"" + alg.substring(end) + "\"");
            }
            end = m.end();
            if (m.group(0).equals("/")) {
                if ((int) getShapeIdx.invoke(c) < 0) {
                    throw new IllegalArgumentException("twist not allowed here: " + alg.substring(0, m.end()));
                }
                doMove.invoke(c, 0);
            } else {
                int top = Math.floorMod(Integer.parseInt(m.group(1)), 12);
                int bottom = Math.floorMod(Integer.parseInt(m.group(2)), 12);
                if (top != 0) {
                    doMove.invoke(c, top);
                }
                if (bottom != 0) {
                    doMove.invoke(c, -bottom);
                }
            }
        }
        if (!alg.substring(end).trim().isEmpty()) {
            throw new IllegalArgumentException("bad Square-1 alg at \"" + alg.substring(end) + "\"");
        }
    }

    static int twists(String alg) {
        int k = 0;
        for (char ch : alg.toCharArray()) {
            if (ch == '/') {
                k++;
            }
        }
        return k;
    }

    static int wcaLength(String alg) {
        Matcher m = MOVE.matcher(alg);
        int k = 0;
        while (m.find()) {
            k++;
        }
        return k;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Sq12phaseBench solve INPUTS [WARMUP] | random COUNT SEED | selftest COUNT SEED");
            System.exit(2);
        }
        PeerStats.muzzle();
        doMove = FullCube.class.getDeclaredMethod("doMove", int.class);
        isSolved = FullCube.class.getDeclaredMethod("isSolved");
        getShapeIdx = FullCube.class.getDeclaredMethod("getShapeIdx");
        doMove.setAccessible(true);
        isSolved.setAccessible(true);
        getShapeIdx.setAccessible(true);

        long t0 = System.nanoTime();
        Search search = new Search(); // its static initialiser builds the shape and square tables
        double initS = (System.nanoTime() - t0) / 1e9;
        long wcaSum = 0;
        int done = 0;
        PeerStats stats;
        long all;
        if (args[0].equals("solve")) {
            List<String> inputs = PeerStats.readInputs(args[1]);
            int warm = args.length > 2 ? Integer.parseInt(args[2]) : 0;
            for (int i = 0; i < Math.min(warm, inputs.size()); i++) {
                FullCube c = new FullCube();
                apply(c, inputs.get(i));
                search.solution(c);
            }
            stats = new PeerStats("sq12phase", "twists");
            all = System.nanoTime();
            for (int i = 0; i < inputs.size(); i++) {
                FullCube c = new FullCube();
                apply(c, inputs.get(i));
                long t = System.nanoTime();
                String sol = search.solution(c).trim();
                double ms = (System.nanoTime() - t) / 1e6;
                apply(c, sol);
                if (!(boolean) isSolved.invoke(c)) {
                    throw new IllegalStateException("input " + (i + 1) + ": sq12phase's answer does not solve it: " + sol);
                }
                wcaSum += wcaLength(sol);
                done++;
                stats.record(i + 1, twists(sol), ms, sol);
            }
        } else if (args[0].equals("random") || args[0].equals("selftest")) {
            int count = Integer.parseInt(args[1]);
            Random r = new Random(args.length > 2 ? Long.parseLong(args[2]) : 1);
            boolean self = args[0].equals("selftest");
            stats = new PeerStats(self ? "sq12phase-selftest" : "sq12phase-random", "twists");
            all = System.nanoTime();
            for (int i = 0; i < count; i++) {
                FullCube state = FullCube.randomCube(r);
                long t = System.nanoTime();
                String out = (self ? search.solution(state) : search.solution(state, Search.INVERSE_SOLUTION)).trim();
                double ms = (System.nanoTime() - t) / 1e6;
                if (self) {
                    apply(state, out);
                    if (!(boolean) isSolved.invoke(state)) {
                        throw new IllegalStateException("cube " + (i + 1) + ": answer does not solve it: " + out);
                    }
                } else {
                    FullCube c = new FullCube();
                    apply(c, out);
                    if (c.compareTo(state) != 0) {
                        throw new IllegalStateException("cube " + (i + 1) + ": scramble does not give the state: " + out);
                    }
                }
                wcaSum += wcaLength(out);
                done++;
                stats.record(i + 1, twists(out), ms, out);
            }
        } else {
            System.err.println("unknown mode " + args[0]);
            System.exit(2);
            return;
        }
        stats.summary(initS, (System.nanoTime() - all) / 1e9,
            String.format("mean_wca_len=%.2f", wcaSum / (double) Math.max(1, done)));
    }
}
