package io.loadsmith.agent.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The agent's cost and precision, measured on real JVMs (run by hand, see docs/benchmarks.md; not a test):
 * <ol>
 * <li>throughput of a Jetty 12 service with the agent loaded and disarmed against the same service
 *     without it, in the same run, rounds alternating, measured with {@code wrk} on loopback;</li>
 * <li>stall start lateness and duration error through the agent over a few hundred seeded stalls, with
 *     light traffic running;</li>
 * <li>JVM start-up time (process start to the app's first "PORT=" line) with and without the agent.</li>
 * </ol>
 * Arguments: {@code [rounds=5] [seconds=10] [connections=16] [all|throughput|stalls|startup] [startup runs=7]}.
 */
public final class AgentBenchmark {

    private static final String APP = "io.loadsmith.agent.apps.Jetty12App";
    private static final List<String> LIBS = List.of("/org/eclipse/jetty/", "/org/slf4j/");

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int connections = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        String only = args.length > 3 ? args[3] : "all";
        if (only.equals("all") || only.equals("throughput")) {
            throughput(rounds, seconds, connections);
        }
        if (only.equals("all") || only.equals("stalls")) {
            stallPrecision();
        }
        if (only.equals("all") || only.equals("startup")) {
            startup(runs(args));
        }
    }

    /** Start-up runs: the fifth argument, 7 by default. */
    private static int runs(String[] args) {
        return args.length > 4 ? Integer.parseInt(args[4]) : 7;
    }

    private static List<String> jvmArgs(boolean agent) {
        List<String> args = new ArrayList<>(List.of("-Xmx256m"));
        if (agent) {
            args.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=admin=127.0.0.1:0");
        }
        return args;
    }

    private static void throughput(int rounds, int seconds, int connections) throws Exception {
        try (ChildJvm plain = ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs(false), LIBS, APP);
             ChildJvm agent = ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs(true), LIBS, APP)) {
            int plainPort = plain.appPort();
            int agentPort = agent.appPort();
            wrk(plainPort, 5, connections);
            wrk(agentPort, 5, connections);
            List<Double> without = new ArrayList<>();
            List<Double> with = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                double a;
                double b;
                if (round % 2 == 0) {
                    a = wrk(plainPort, seconds, connections);
                    b = wrk(agentPort, seconds, connections);
                } else {
                    b = wrk(agentPort, seconds, connections);
                    a = wrk(plainPort, seconds, connections);
                }
                without.add(a);
                with.add(b);
                ratios.add(b / a);
                System.out.printf(Locale.ROOT, "round %d: without %.0f/s, with agent (disarmed) %.0f/s, ratio %.3f%n", round + 1, a, b, b / a);
            }
            System.out.printf(Locale.ROOT, "THROUGHPUT median without %.0f/s, with %.0f/s, median ratio %.3f (%d rounds of %d s, %d connections)%n",
                    median(without), median(with), median(ratios), rounds, seconds, connections);
        }
    }

    private static void stallPrecision() throws Exception {
        try (ChildJvm agent = ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs(true), LIBS, APP)) {
            int port = agent.appPort();
            Admin admin = new Admin(agent.adminUrl(), null);
            wrk(port, 3, 4);
            long horizonMillis = 40_000;
            Admin.Reply armed = admin.post("/arm", "{\"seed\":7,\"mean_interval_ms\":100,\"duration_ms\":20,\"min_gap_ms\":50,"
                    + "\"horizon_ms\":" + horizonMillis + ",\"kind\":\"block\"}");
            if (armed.status() != 200) {
                throw new IllegalStateException("arm: " + armed.status() + " " + armed.body());
            }
            wrk(port, (int) (horizonMillis / 1000) + 1, 4);
            List<Admin.Window> windows = admin.stalls();
            List<Double> lateness = new ArrayList<>();
            List<Double> durationError = new ArrayList<>();
            long held = 0;
            for (Admin.Window w : windows) {
                lateness.add((w.startNanos() - w.plannedStartNanos()) / 1e3);
                durationError.add((w.endNanos() - w.startNanos() - 20_000_000L) / 1e3);
                held += w.held();
            }
            System.out.printf(Locale.ROOT, "STALLS %d windows of 20 ms (plan seed 7, mean gap 100 ms), %d requests held%n", windows.size(), held);
            System.out.printf(Locale.ROOT, "LATENESS us: p50 %.0f p99 %.0f max %.0f%n", pct(lateness, 50), pct(lateness, 99), pct(lateness, 100));
            System.out.printf(Locale.ROOT, "DURATION ERROR us: p50 %.0f p99 %.0f max %.0f (min %.0f)%n", pct(durationError, 50),
                    pct(durationError, 99), pct(durationError, 100), pct(durationError, 0));
        }
    }

    private static void startup(int runs) throws Exception {
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> adminReady = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            for (boolean agent : new boolean[] {false, true}) {
                long start = System.nanoTime();
                try (ChildJvm app = ChildJvm.start(ChildJvm.currentJavaHome(), jvmArgs(agent), LIBS, APP)) {
                    app.appPort();
                    double millis = (System.nanoTime() - start) / 1e6;
                    (agent ? with : without).add(millis);
                    if (agent) {
                        app.adminUrl();
                        adminReady.add((System.nanoTime() - start) / 1e6);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "STARTUP ms to first PORT= line, median of %d: without %.0f, with agent %.0f (+%.0f); "
                        + "with agent, to the \"admin API on\" line (gates in place): %.0f%n",
                runs, median(without), median(with), median(with) - median(without), median(adminReady));
        System.out.println("STARTUP runs without " + without + ", with " + with + ", admin ready " + adminReady);
    }

    /** Runs wrk against /fast; returns requests per second. */
    private static double wrk(int port, int seconds, int connections) throws IOException, InterruptedException {
        Process wrk = new ProcessBuilder("wrk", "-t1", "-c" + connections, "-d" + seconds + "s", "http://127.0.0.1:" + port + "/fast")
                .redirectErrorStream(true).start();
        String out = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!wrk.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
            wrk.destroyForcibly();
        }
        Matcher m = Pattern.compile("Requests/sec:\\s+([0-9.]+)").matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("no Requests/sec in wrk output:\n" + out);
        }
        return Double.parseDouble(m.group(1));
    }

    private static double median(List<Double> values) {
        return pct(values, 50);
    }

    private static double pct(List<Double> values, double percentile) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
