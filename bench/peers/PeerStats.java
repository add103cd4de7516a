// Our code (no peer code): what the Java peer drivers in this folder share. Reading the input
// file, keeping the peer's own printing off standard output, and the per-solve and summary lines:
//
//   <index> TAB <length> TAB <ms> TAB <solution or scramble>
//   # summary peer=P metric=M count=N mean_len=L median_ms=A mean_ms=B max_ms=C total_s=T init_s=I
//
// total_s is the wall time of all the timed solves together (init excluded); init_s is the
// peer's own start-up (tables built or read), timed separately.
import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

final class PeerStats {
    /** Standard output as the JVM started; System.out is pointed at nothing while a peer runs. */
    static final PrintStream OUT = System.out;
    private static final PrintStream NULL = new PrintStream(new OutputStream() {
        @Override public void write(int b) { }
        @Override public void write(byte[] b, int off, int len) { }
    });

    /** Peer chatter (progress lines, debug dumps) goes nowhere; set PEER_VERBOSE=1 to see it on stderr. */
    static void muzzle() {
        System.setOut(System.getenv("PEER_VERBOSE") != null ? System.err : NULL);
    }

    static List<String> readInputs(String path) throws IOException {
        List<String> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new FileReader(path))) {
            String line;
            while ((line = r.readLine()) != null) {
                line = line.trim();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    out.add(line);
                }
            }
        }
        return out;
    }

    private final String peer, metric;
    private final List<Double> ms = new ArrayList<>();
    private long lengthSum = 0;
    private int maxLength = 0;

    PeerStats(String peer, String metric) {
        this.peer = peer;
        this.metric = metric;
    }

    void record(int index, int length, double millis, String text) {
        ms.add(millis);
        lengthSum += length;
        maxLength = Math.max(maxLength, length);
        OUT.printf("%d\t%d\t%.3f\t%s%n", index, length, millis, text.trim().replaceAll("\\s+", " "));
        OUT.flush();
    }

    void summary(double initSeconds, double totalSeconds) {
        summary(initSeconds, totalSeconds, "");
    }

    /** extra: more "key=value" fields for the summary line (a second metric, say). */
    void summary(double initSeconds, double totalSeconds, String extra) {
        int count = ms.size();
        double[] a = new double[count];
        double sum = 0;
        for (int i = 0; i < count; i++) {
            a[i] = ms.get(i);
            sum += a[i];
        }
        Arrays.sort(a);
        double median = count == 0 ? 0 : count % 2 == 1 ? a[count / 2] : (a[count / 2 - 1] + a[count / 2]) / 2;
        OUT.printf("# summary peer=%s metric=%s count=%d mean_len=%.2f max_len=%d median_ms=%.3f mean_ms=%.3f max_ms=%.3f total_s=%.3f init_s=%.3f%s%n",
            peer, metric, count, count == 0 ? 0.0 : lengthSum / (double) count, maxLength, median,
            count == 0 ? 0.0 : sum / count, count == 0 ? 0.0 : a[count - 1], totalSeconds, initSeconds,
            extra.isEmpty() ? "" : " " + extra);
        OUT.flush();
    }
}
