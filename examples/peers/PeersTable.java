import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints the markdown table of docs/peers.md from the files peers.sh wrote into OUT: wrk.txt and
 * wrk-stalls.json (wrk's run and the agent's stalls during it), and NAME/results.json per loadsmith loop.
 * Run by peers.sh as a single-file program on the CLI's jar (for Jackson):
 * {@code java -cp loadsmith.jar PeersTable.java OUT closed-1 paced-4 open-200}.
 */
public final class PeersTable {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        System.out.println();
        System.out.println(machine(out));
        System.out.println();
        System.out.println("| tester | requests | rate/s | p50 ms | p99 ms | max ms | p99 ms from intended send | p99 ms estimated after the run | stalls met | requests held by the agent | sent during stalls |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        System.out.println(wrkRow(out));
        for (int i = 1; i < args.length; i++) {
            System.out.println(loadsmithRow(args[i], JSON.readTree(out.resolve(args[i]).resolve("results.json").toFile())));
        }
    }

    /**
     * The machine and its 1-minute load average before the run (peers.sh keeps /proc/loadavg as
     * loadavg-start) and at its end, which counts the run's own JVMs and wrk.
     */
    private static String machine(Path out) throws IOException {
        Path start = out.resolve("loadavg-start");
        String before = Files.exists(start) ? Files.readString(start).split(" ")[0] + " before the run, " : "";
        String end = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        return String.format(Locale.ROOT, "Measured %s on %s: %d cores, load average %s%s at the end (the run's own"
                        + " processes included).", java.time.LocalDate.now(), hostName(),
                Runtime.getRuntime().availableProcessors(), before, end);
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "this host";
        }
    }

    /** wrk's own figures: its --latency percentiles, Max, requests and Requests/sec; held from the agent. */
    private static String wrkRow(Path out) throws IOException {
        String text = Files.readString(out.resolve("wrk.txt"));
        JsonNode stalls = JSON.readTree(out.resolve("wrk-stalls.json").toFile()).path("stalls");
        long held = 0;
        for (JsonNode stall : stalls) {
            held += stall.path("held").asLong();
        }
        // wrk 4 prints its percentiles after its own correction (stats_correct): they are estimates too
        String p99 = millis(find(text, "\\s99%\\s+(\\S+)"));
        return String.format(Locale.ROOT, "| wrk -t1 -c1 (closed, 1 connection) | %s | %s | %s | %s | %s | — | %s | %d | %d | — |",
                find(text, "(\\d+) requests in"), find(text, "Requests/sec:\\s+(\\S+)"),
                millis(find(text, "\\s50%\\s+(\\S+)")), p99,
                millis(find(text, "Latency\\s+\\S+\\s+\\S+\\s+(\\S+)")), p99, stalls.size(), held);
    }

    /**
     * A loadsmith run: service latency (actual send to end), corrected p99 (intended send to end), and the
     * closed and paced loops' estimated p99 (the after-the-run correction wrk also makes).
     */
    private static String loadsmithRow(String name, JsonNode results) {
        JsonNode run = results.path("runs").path(0);
        JsonNode service = run.path("latency_ms").path("service");
        long held = 0;
        for (JsonNode stall : run.path("stalls")) {
            held += stall.path("held").asLong();
        }
        JsonNode estimated = run.path("latency_ms").path("estimated");
        String estimatedP99 = estimated.isMissingNode() ? "—"
                : String.format(Locale.ROOT, "%.2f", estimated.path("p99").asDouble());
        return String.format(Locale.ROOT, "| loadsmith %s (%s) | %d | %.1f | %.2f | %.2f | %.1f | %.2f | %s | %d | %d | %d |",
                name, run.path("tester").path("model").asText(), run.path("counts").path("completed").asLong(),
                run.path("achieved_rate").asDouble(), service.path("p50").asDouble(), service.path("p99").asDouble(),
                service.path("max").asDouble(), run.path("latency_ms").path("corrected").path("p99").asDouble(),
                estimatedP99, run.path("stall_summary").path("stalls_met").asLong(), held,
                run.path("stall_summary").path("sent_during_total").asLong());
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("wrk.txt has no " + regex);
        }
        return m.group(1);
    }

    /** wrk's durations ("342.00us", "1.03ms", "2.00s") in milliseconds. */
    private static String millis(String wrk) {
        Matcher m = Pattern.compile("([0-9.]+)(us|ms|s|m)").matcher(wrk);
        if (!m.matches()) {
            throw new IllegalStateException("not a wrk duration: " + wrk);
        }
        double value = Double.parseDouble(m.group(1));
        double ms = switch (m.group(2)) {
            case "us" -> value / 1000;
            case "ms" -> value;
            case "s" -> value * 1000;
            default -> value * 60_000;
        };
        return String.format(Locale.ROOT, "%.2f", ms);
    }
}
