// Times min2phase (cs.min2phase.Search) on facelet strings, one thread, one cube at a time.
// Usage: java -cp CLASSES:. Min2phaseBench FILE MAXLEN [MAXLEN...]
// Prints one line per cap: median, mean, p90, p99, max (ms) and mean length. A solution
// that does not solve its cube, or an error string, stops the run.
import cs.min2phase.Search;
import cs.min2phase.Tools;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

public class Min2phaseBench {
    public static void main(String[] args) throws Exception {
        List<String> cubes = Files.readAllLines(Paths.get(args[0])).stream()
            .map(String::trim).filter(s -> !s.isEmpty()).collect(Collectors.toList());
        long t0 = System.nanoTime();
        Search.init();
        System.out.printf("min2phase: %d cubes, one thread; tables initialised in %.1f ms%n",
            cubes.size(), (System.nanoTime() - t0) / 1e6);
        System.out.printf("%-7s %4s %10s %10s %10s %10s %10s %8s%n",
            "metric", "cap", "median", "mean", "p90", "p99", "max", "length");
        Search search = new Search();
        for (int a = 1; a < args.length; a++) {
            int cap = Integer.parseInt(args[a]);
            // Warm-up pass (the JIT compiles the search), as for cubedb's bench.
            for (int i = 0; i < Math.min(cubes.size(), 200); i++) {
                search.solution(cubes.get(i), cap, 100000000, 0, 0);
            }
            double[] ms = new double[cubes.size()];
            long totalLength = 0;
            for (int i = 0; i < cubes.size(); i++) {
                String cube = cubes.get(i);
                long t = System.nanoTime();
                String sol = search.solution(cube, cap, 100000000, 0, 0);
                ms[i] = (System.nanoTime() - t) / 1e6;
                if (sol.startsWith("Error")) {
                    throw new RuntimeException("cube " + (i + 1) + ": " + sol);
                }
                // The solution must solve the cube: undoing it from solved gives the cube.
                if (!Tools.fromScramble(undo(sol)).equals(cube)) {
                    throw new RuntimeException("cube " + (i + 1) + ": wrong solution " + sol);
                }
                int length = sol.trim().isEmpty() ? 0 : sol.trim().split("\\s+").length;
                if (length > cap) {
                    throw new RuntimeException("cube " + (i + 1) + ": " + length + " > " + cap);
                }
                totalLength += length;
            }
            double mean = Arrays.stream(ms).average().orElse(0);
            Arrays.sort(ms);
            System.out.printf("%-7s %4d %10s %10s %10s %10s %10s %8.2f%n", "htm", cap,
                human(q(ms, 0.5)), human(mean), human(q(ms, 0.9)), human(q(ms, 0.99)),
                human(ms[ms.length - 1]), (double) totalLength / cubes.size());
        }
    }

    /** The moves that undo `moves`: reversed, each turned the other way. */
    static String undo(String moves) {
        String[] m = moves.trim().isEmpty() ? new String[0] : moves.trim().split("\\s+");
        StringBuilder out = new StringBuilder();
        for (int i = m.length - 1; i >= 0; i--) {
            String face = m[i].substring(0, 1);
            String turn = m[i].substring(1);
            out.append(face).append(turn.equals("'") ? "" : turn.equals("2") ? "2" : "'").append(' ');
        }
        return out.toString().trim();
    }

    static double q(double[] sorted, double p) {
        return sorted[(int) Math.round((sorted.length - 1) * p)];
    }

    static String human(double ms) {
        if (ms >= 1000) return String.format("%.2f s", ms / 1000);
        if (ms >= 1) return String.format("%.2f ms", ms);
        return String.format("%.2f us", ms * 1000);
    }
}
