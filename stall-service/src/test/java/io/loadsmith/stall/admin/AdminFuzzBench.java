package io.loadsmith.stall.admin;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The fuzz campaign as a bench (stall-service/bench/fuzz.sh): {@code AdminFuzzBench [REQUESTS [SEED]]}
 * (100,000 and 14 by default) against a {@link FuzzTarget} in this JVM. Prints a Markdown table of the
 * answers by family and status, the slowest answer, and every violation; exits 1 if there was one.
 */
public final class AdminFuzzBench {

    private static final int BATCH = 1_000;
    private static final int DEADLINE_MILLIS = 15_000;

    private AdminFuzzBench() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 14;
        AdminFuzzCampaign.Report report;
        String crowd;
        long startNanos = System.nanoTime();
        try (FuzzTarget target = new FuzzTarget()) {
            int[] batches = {0};
            report = new AdminFuzzCampaign(target.admin.address(), FuzzTarget.TOKEN, DEADLINE_MILLIS).run(seed, requests, BATCH, () -> {
                if (++batches[0] % 10 == 0) {
                    System.err.printf("# %d requests%n", batches[0] * BATCH);
                }
                return target.appAnswers();
            });
            if (target.controller.armed()) {
                report.violations().add("armed at the end of the campaign");
            }
            crowd = Crowd.measure(target.admin.address()) + "\n" + Crowd.measureRefused(target.admin.address());
        }
        System.out.print(table(report));
        System.out.printf("%nrequests: %d, seed %d; plans armed by calls valid by the API's rules (each disarmed at once): %d%n",
                report.requests(), seed, report.armedByValidCalls());
        System.out.printf("slowest answer: %.1f ms (%s)%n", report.slowestNanos() / 1e6, report.slowestCase());
        System.out.println(crowd);
        System.out.printf("campaign: %.0f s; violations: %d%n", (System.nanoTime() - startNanos) / 1e9, report.violations().size());
        report.violations().stream().limit(50).forEach(violation -> System.out.println("VIOLATION " + violation));
        System.exit(report.violations().isEmpty() ? 0 : 1);
    }

    /** A Markdown table: one row per family, one column per outcome, with totals. */
    static String table(AdminFuzzCampaign.Report report) {
        TreeSet<String> outcomes = new TreeSet<>();
        report.counts().values().forEach(counts -> outcomes.addAll(counts.keySet()));
        StringBuilder out = new StringBuilder("| family |");
        outcomes.forEach(outcome -> out.append(' ').append(outcome).append(" |"));
        out.append(" total |\n| --- |");
        outcomes.forEach(outcome -> out.append(" ---: |"));
        out.append(" ---: |\n");
        Map<String, Integer> totals = new TreeMap<>();
        for (Map.Entry<AdminFuzz.Family, Map<String, Integer>> family : report.counts().entrySet()) {
            out.append("| ").append(family.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(" |");
            int sum = 0;
            for (String outcome : outcomes) {
                int count = family.getValue().getOrDefault(outcome, 0);
                out.append(' ').append(count).append(" |");
                totals.merge(outcome, count, Integer::sum);
                sum += count;
            }
            out.append(' ').append(sum).append(" |\n");
        }
        out.append("| **all** |");
        outcomes.forEach(outcome -> out.append(" **").append(totals.get(outcome)).append("** |"));
        out.append(" **").append(totals.values().stream().mapToInt(Integer::intValue).sum()).append("** |\n");
        return out.toString();
    }

    /**
     * The crowd lines. The first: 200 connections that stop inside a request (half of them inside a body) and
     * 50 that send nothing, then {@code GET /stalls} and {@code POST /disarm} timed 20 times each among them.
     * The second: 150 connections, half stopped inside a request line and half inside the body of a
     * {@code POST /arm} its handler refuses unread (no Content-Type: 415; 4 of 1,000 bytes sent), then
     * {@code GET /stalls} 5 times 0.2 s apart, 3 times, each with a fresh crowd. The aim: each call within 100 ms.
     */
    private static final class Crowd {
        private static final int TRICKLING = 200;
        private static final int IDLE = 50;
        private static final int CALLS = 20;
        private static final int REFUSED_CROWD = 150;
        private static final int REFUSED_REPETITIONS = 3;
        private static final int REFUSED_CALLS = 5;
        private static final long REFUSED_CALL_GAP_NANOS = 200_000_000;

        static String measure(InetSocketAddress admin) throws Exception {
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < TRICKLING + IDLE; i++) {
                    sockets.add(open(admin, i >= TRICKLING ? "" : i % 2 == 0 ? "GET /sta"
                            : "POST /disarm HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + FuzzTarget.TOKEN
                            + "\r\nContent-Length: 100\r\n\r\n{"));
                }
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                long[] stallsNanos = new long[CALLS];
                long[] disarmNanos = new long[CALLS];
                for (int i = 0; i < CALLS; i++) {
                    stallsNanos[i] = timed(http, admin, "GET", "/stalls");
                    disarmNanos[i] = timed(http, admin, "POST", "/disarm");
                }
                Arrays.sort(stallsNanos);
                Arrays.sort(disarmNanos);
                return String.format("crowd (%d trickling, %d idle connections): GET /stalls median %.1f ms, max %.1f ms; "
                                + "POST /disarm median %.1f ms, max %.1f ms (%d calls each; aim: each within 100 ms)", TRICKLING, IDLE,
                        stallsNanos[CALLS / 2] / 1e6, stallsNanos[CALLS - 1] / 1e6, disarmNanos[CALLS / 2] / 1e6,
                        disarmNanos[CALLS - 1] / 1e6, CALLS);
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
        }

        static String measureRefused(InetSocketAddress admin) throws Exception {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            StringBuilder line = new StringBuilder(String.format("crowd (%d request lines, %d refused bodies): GET /stalls %d times "
                    + "0.2 s apart, ms:", REFUSED_CROWD / 2, REFUSED_CROWD / 2, REFUSED_CALLS));
            long maxNanos = 0;
            for (int repetition = 0; repetition < REFUSED_REPETITIONS; repetition++) {
                List<Socket> sockets = new ArrayList<>();
                try {
                    for (int i = 0; i < REFUSED_CROWD; i++) {
                        sockets.add(open(admin, i % 2 == 0 ? "GET /stal" : "POST /arm HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Authorization: Bearer " + FuzzTarget.TOKEN + "\r\nContent-Length: 1000\r\n\r\n{\"se"));
                    }
                    line.append(repetition == 0 ? " " : "; ");
                    long startNanos = System.nanoTime();
                    for (int i = 0; i < REFUSED_CALLS; i++) {
                        long nanos = timed(http, admin, "GET", "/stalls");
                        maxNanos = Math.max(maxNanos, nanos);
                        line.append(i == 0 ? "" : " ").append(String.format("%.1f", nanos / 1e6));
                        long nextNanos = startNanos + (i + 1) * REFUSED_CALL_GAP_NANOS;
                        TimeUnit.NANOSECONDS.sleep(nextNanos - System.nanoTime());
                    }
                } finally {
                    for (Socket socket : sockets) {
                        socket.close();
                    }
                }
            }
            return line.append(String.format(" (max %.1f ms; aim: each within 100 ms)", maxNanos / 1e6)).toString();
        }

        private static Socket open(InetSocketAddress admin, String partialRequest) throws Exception {
            Socket socket = new Socket();
            socket.connect(admin, 10_000);
            socket.getOutputStream().write(partialRequest.getBytes(StandardCharsets.US_ASCII));
            return socket;
        }

        private static long timed(HttpClient http, InetSocketAddress admin, String method, String path) throws Exception {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.getPort() + path))
                    .header("Authorization", "Bearer " + FuzzTarget.TOKEN).timeout(Duration.ofSeconds(30))
                    .method(method, HttpRequest.BodyPublishers.noBody()).build();
            long startNanos = System.nanoTime();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            long elapsedNanos = System.nanoTime() - startNanos;
            if (response.statusCode() != 200) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode() + " in the crowd: "
                        + response.body());
            }
            return elapsedNanos;
        }
    }
}
