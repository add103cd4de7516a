// Our driver for TNoodle's scramble library (thewca/tnoodle-lib, org.worldcubeassociation.tnoodle):
// only its public API (PuzzleRegistry, Puzzle.generateWcaScramble). Compiled and run by
// tnoodle-scrambles.sh, which says where the library comes from.
//
//   java TnoodleScrambles EVENT COUNT OUT [SEED]
//
// EVENT is a WCA event id: 222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf clock
// minx pyram skewb sq1 (333ft too); fto is not in TNoodle. Writes COUNT scrambles to OUT, one a
// line: TNoodle's megaminx scramble is 7 lines (each ending in U or U'), written here joined by
// single spaces, as is any other whitespace run. 333mbf is one 333bf-puzzle (333ni) scramble per
// cube, 333oh and 333ft the plain 333 scrambler, as in TNoodle's own app.
//
// Each scramble is generateWcaScramble(r): TNoodle's generator plus its filter that throws away
// scrambles within its minimum distance of solved. r is Puzzle.getSecureRandom() (what
// generateScramble() uses), or with SEED a SHA1PRNG seeded with SEED's bytes (as
// generateSeededScrambles does, so the same SEED gives the same scrambles).
//
// Prints one line:
//   # scrambles peer=tnoodle event=E puzzle=P count=N process_to_first_ms=A first_ms=B
//     rest_per_s=C rest_mean_ms=D rest_median_ms=E mean_tokens=F
// process_to_first_ms: from the JVM's start to the first scramble (class loading, the
// puzzle's tables, the first search); first_ms: the first scramble alone from the puzzle's
// construction; rest_*: scrambles 2..N (after that warm-up), their rate and time each;
// mean_tokens: whitespace-separated tokens a scramble (moves; for sq1 each "(x,y)" and "/").
import java.io.FileWriter;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Random;

import org.worldcubeassociation.tnoodle.scrambles.Puzzle;
import org.worldcubeassociation.tnoodle.scrambles.PuzzleRegistry;

public class TnoodleScrambles {
    static PuzzleRegistry registryFor(String event) {
        switch (event) {
            case "222": return PuzzleRegistry.TWO;
            case "333": case "333oh": case "333ft": return PuzzleRegistry.THREE;
            case "444": return PuzzleRegistry.FOUR;
            case "555": return PuzzleRegistry.FIVE;
            case "666": return PuzzleRegistry.SIX;
            case "777": return PuzzleRegistry.SEVEN;
            case "333bf": case "333mbf": return PuzzleRegistry.THREE_NI;
            case "333fm": return PuzzleRegistry.THREE_FM;
            case "444bf": return PuzzleRegistry.FOUR_NI;
            case "555bf": return PuzzleRegistry.FIVE_NI;
            case "clock": return PuzzleRegistry.CLOCK;
            case "minx": return PuzzleRegistry.MEGA;
            case "pyram": return PuzzleRegistry.PYRA;
            case "skewb": return PuzzleRegistry.SKEWB;
            case "sq1": return PuzzleRegistry.SQ1;
            default: return null;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: TnoodleScrambles EVENT COUNT OUT [SEED]");
            System.exit(2);
        }
        String event = args[0];
        int count = Integer.parseInt(args[1]);
        PuzzleRegistry reg = registryFor(event);
        if (reg == null) {
            System.err.println("TNoodle has no scrambler for event " + event);
            System.exit(3);
        }
        Random r;
        if (args.length > 3) {
            SecureRandom s = Puzzle.getSecureRandom();
            s.setSeed(args[3].getBytes());
            r = s;
        } else {
            r = Puzzle.getSecureRandom();
        }
        long t0 = System.nanoTime();
        Puzzle puzzle = reg.getScrambler();
        String[] out = new String[count];
        double[] ms = new double[count];
        long firstWall = 0;
        for (int i = 0; i < count; i++) {
            long t = System.nanoTime();
            out[i] = puzzle.generateWcaScramble(r).trim().replaceAll("\\s+", " ");
            ms[i] = (System.nanoTime() - t) / 1e6;
            if (i == 0) {
                ms[0] = (System.nanoTime() - t0) / 1e6;
                firstWall = System.currentTimeMillis();
            }
        }
        long processToFirst = firstWall - ManagementFactory.getRuntimeMXBean().getStartTime();
        long tokens = 0;
        try (PrintWriter w = new PrintWriter(new FileWriter(args[2]))) {
            for (String s : out) {
                w.println(s);
                tokens += s.isEmpty() ? 0 : s.split(" ").length;
            }
        }
        double[] rest = Arrays.copyOfRange(ms, 1, count);
        Arrays.sort(rest);
        double restSum = 0;
        for (double v : rest) {
            restSum += v;
        }
        double median = rest.length == 0 ? 0 : rest.length % 2 == 1 ? rest[rest.length / 2] : (rest[rest.length / 2 - 1] + rest[rest.length / 2]) / 2;
        System.out.printf("# scrambles peer=tnoodle event=%s puzzle=%s count=%d process_to_first_ms=%.0f first_ms=%.1f rest_per_s=%.2f rest_mean_ms=%.3f rest_median_ms=%.3f mean_tokens=%.2f%n",
            event, puzzle.getShortName(), count,
            (double) processToFirst, ms[0],
            rest.length == 0 ? 0.0 : rest.length / (restSum / 1000), rest.length == 0 ? 0.0 : restSum / rest.length,
            median, tokens / (double) count);
    }
}
