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
        System.out.println(machine());
        System.out.println();
        System.out.println("| tester | requests | rate/s | p50 ms | p99 ms | max ms | p99 ms from intended send | stalls met | requests held by the agent | sent during stalls |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        System.out.println(wrkRow(out));
        for (int i = 1; i < args.length; i++) {
            System.out.println(loadsmithRow(args[i], JSON.readTree(out.resolve(args[i]).resolve("results.json").toFile())));
        }
    }

    private static String machine() throws IOException {
        String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        return String.format(Locale.ROOT, "Measured %s on %s: %d cores, load average %s at the end (%s).",
                java.time.LocalDate.now(), hostName(), Runtime.getRuntime().availableProcessors(), load,
                Double.parseDouble(load) > Runtime.getRuntime().availableProcessors() / 2.0
                        ? "a loaded box: other work shared the cores, so the figures are not results"
                        : "a quiet box");
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
        return String.format(Locale.ROOT, "| wrk -t1 -c1 (closed, 1 connection) | %s | %s | %s | %s | %s | — | %d | %d | — |",
                find(text, "(\\d+) requests in"), find(text, "Requests/sec:\\s+(\\S+)"),
                millis(find(text, "\\s50%\\s+(\\S+)")), millis(find(text, "\\s99%\\s+(\\S+)")),
                millis(find(text, "Latency\\s+\\S+\\s+\\S+\\s+(\\S+)")), stalls.size(), held);
    }

    /** A loadsmith run: service latency (actual send to end), corrected p99 (intended send to end). */
    private static String loadsmithRow(String name, JsonNode results) {
        JsonNode run = results.path("runs").path(0);
        JsonNode service = run.path("latency_ms").path("service");
        long held = 0;
        for (JsonNode stall : run.path("stalls")) {
            held += stall.path("held").asLong();
        }
        return String.format(Locale.ROOT, "| loadsmith %s (%s) | %d | %.1f | %.2f | %.2f | %.1f | %.2f | %d | %d | %d |",
                name, run.path("tester").path("model").asText(), run.path("counts").path("completed").asLong(),
                run.path("achieved_rate").asDouble(), service.path("p50").asDouble(), service.path("p99").asDouble(),
                service.path("max").asDouble(), run.path("latency_ms").path("corrected").path("p99").asDouble(),
                run.path("stall_summary").path("stalls_met").asLong(), held,
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
