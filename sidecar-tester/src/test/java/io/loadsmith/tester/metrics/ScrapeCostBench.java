package io.loadsmith.tester.metrics;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.transport.Outcome;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Random;

/**
 * What one scrape of the tester's metrics costs, part by part, on this JVM: building the snapshots
 * ({@link LiveMetrics#collect}) alone, then a whole scrape over loopback as Prometheus makes it (OpenMetrics,
 * gzip) and without gzip; wall time and CPU of the process per scrape, medians of the measured scrapes, after
 * a warm-up. The live histograms hold a minute at 10,000/s of spread latencies.
 * <pre>
 *   ./mvnw -B -q -o -pl sidecar-tester -am test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 *   java -cp sidecar-tester/target/test-classes:sidecar-tester/target/classes:$(cat sidecar-tester/target/bench.classpath) \
 *       io.loadsmith.tester.metrics.ScrapeCostBench [SCRAPES]
 * </pre>
 */
public final class ScrapeCostBench {

    private static final long MS = 1_000_000L;

    public static void main(String[] args) throws Exception {
        int scrapes = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        LiveStats live = new LiveStats();
        RunRecorder recorder = RunRecorder.discarding(0, 60_000 * MS, 0, step -> "step" + step, false);
        recorder.live(live);
        Random random = new Random(1);
        for (int i = 0; i < 600_000; i++) {
            long intended = i * 100_000L;
            long sent = intended + (long) (random.nextDouble() * 200_000);
            long end = sent + (long) (Math.exp(random.nextGaussian()) * 500_000);
            recorder.completed(intended, intended, sent, end, i % 64, 0, 200, Outcome.OK);
        }
        RunLabels labels = new RunLabels("live-metrics-cost", "open", "0/1", "p0-on");
        LiveMetrics metrics = new LiveMetrics(live, labels, Clock.system(), () -> null);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf("%-28s %12s %12s %12s %10s%n", "part", "wall_us_p50", "server_cpu_us", "alloc_kb", "bytes");
        row("collect() alone", scrapes, threads, true, () -> {
            metrics.collect();
            return 0;
        });
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), labels, live,
                Clock.system())) {
            HttpClient client = HttpClient.newHttpClient();
            URI uri = endpoint.uri();
            String openMetrics = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5";
            row("scrape, OpenMetrics, gzip asked (answered plain)", scrapes, threads, false, () -> get(client, uri, openMetrics, "gzip"));
            row("scrape, OpenMetrics", scrapes, threads, false, () -> get(client, uri, openMetrics, "identity"));
            row("scrape, text 0.0.4", scrapes, threads, false, () -> get(client, uri, "text/plain;version=0.0.4", "identity"));
        }
    }

    private interface Part {
        int run() throws Exception;
    }

    private static int get(HttpClient client, URI uri, String accept, String encoding) throws Exception {
        HttpResponse<byte[]> answer = client.send(HttpRequest.newBuilder(uri).header("Accept", accept)
                .header("Accept-Encoding", encoding).build(), HttpResponse.BodyHandlers.ofByteArray());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("status " + answer.statusCode());
        }
        return answer.body().length;
    }

    private static void row(String part, int scrapes, ThreadMXBean threads, boolean alone, Part work) throws Exception {
        long[] wall = new long[scrapes];
        int bytes = 0;
        for (int i = 0; i < scrapes / 2; i++) {
            work.run(); // warm-up
        }
        long cpu0 = serverCpuNanos(threads, alone);
        long allocated0 = allocatedBytes(threads);
        for (int i = 0; i < scrapes; i++) {
            long t0 = System.nanoTime();
            bytes = work.run();
            wall[i] = System.nanoTime() - t0;
        }
        double cpuMicros = (serverCpuNanos(threads, alone) - cpu0) / 1e3 / scrapes;
        double allocatedKb = (allocatedBytes(threads) - allocated0) / 1024.0 / scrapes;
        Arrays.sort(wall);
        System.out.printf("%-28s %12.1f %12.1f %12.0f %10d%n", part, wall[scrapes / 2] / 1e3, cpuMicros, allocatedKb,
                bytes);
    }

    /** Bytes allocated so far by every live thread of this JVM (the client's and the server's included). */
    private static long allocatedBytes(ThreadMXBean threads) {
        com.sun.management.ThreadMXBean counting = (com.sun.management.ThreadMXBean) threads;
        long sum = 0;
        for (long bytes : counting.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }

    /**
     * CPU time so far of the threads that answer a scrape: the endpoint's ({@code loadsmith-metrics}), the JDK
     * HTTP server's dispatcher, and for {@code collect()} alone the caller ({@code main}); not the client's.
     */
    private static long serverCpuNanos(ThreadMXBean threads, boolean alone) {
        long sum = 0;
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && (info.getThreadName().equals("loadsmith-metrics")
                    || info.getThreadName().startsWith("HTTP-Dispatcher") || alone && info.getThreadName().equals("main"))) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }
}
