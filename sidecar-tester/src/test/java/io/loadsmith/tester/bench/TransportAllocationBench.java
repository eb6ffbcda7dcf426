package io.loadsmith.tester.bench;

import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.ScenarioParser;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Bytes allocated per request by the real engine on the default transport ({@code NettyTransport}) against
 * a loopback HTTP server given by URL (another JVM, so its allocations are not counted): for each load, a
 * run of a warm-up then a counted run, measured over a window of the counted run that starts 2 s in (the
 * recorder's first second is behind it) and holds 100,000 requests or more; the bytes of the loop's thread
 * ({@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes} of its id, read on the loop) and of the
 * whole process (the sum over every live thread) over the requests the transport sent in the window. The
 * run's files are written by a writer thread, as in a real run.
 * Allocation does not depend on the box's load, so these figures can be compared across boxes.
 *
 * <pre>
 * sidecar-tester/bench/engine-bench.sh transport-alloc     # starts HelloServer in another JVM
 * java -cp ... io.loadsmith.tester.bench.TransportAllocationBench http://127.0.0.1:18080/ [windowSeconds [onlyLoadsNamedWith]]
 * </pre>
 */
public final class TransportAllocationBench {

    private static final long S = 1_000_000_000L;
    private static String only;

    public static void main(String[] args) throws Exception {
        URI url = URI.create(args.length > 0 ? args[0] : "http://127.0.0.1:18080/");
        int windowSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        only = args.length > 2 ? args[2] : "";
        Path dir = Files.createTempDirectory("loadsmith-transport-alloc");
        try {
            RequestSource plain = RequestSource.get(url);
            RequestSource templated = templatedJourney(url, dir);
            System.out.println("| load | requests in the window | loop thread, bytes a request | process, bytes a request |");
            System.out.println("| --- | --- | --- | --- |");
            report("closed, 16 connections, a plain GET", TesterSpec.closed(16), plain, dir, windowSeconds);
            report("open Poisson 10,000/s, a plain GET", TesterSpec.open(10_000).maxConcurrency(64), plain, dir,
                    windowSeconds);
            report("closed, 16 connections, a templated journey", TesterSpec.closed(16), templated, dir, windowSeconds);
            report("open Poisson 10,000/s, a templated journey", TesterSpec.open(10_000).maxConcurrency(64), templated,
                    dir, windowSeconds);
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** One step with placeholders in path, query and a header, a row of 1,000 drawn per arrival. */
    private static RequestSource templatedJourney(URI url, Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("id,name\n");
        for (int i = 0; i < 1000; i++) {
            csv.append(i).append(",user-").append(i * 7919 % 1000).append('\n');
        }
        Files.writeString(dir.resolve("users.csv"), csv);
        String yaml = "target: {url: '" + url + "'}\nload: {rate: 1, duration: 1s}\njourneys:\n"
                + "  - data: users.csv\n    steps:\n"
                + "      - request: 'GET /users/${id}?name=${name}'\n        headers: {X-Trace: 'trace-${id}'}\n";
        return ScenarioParser.parse(yaml, "bench.yaml", dir, List.of()).source(url);
    }

    private static void report(String name, TesterSpec load, RequestSource source, Path dir, int windowSeconds)
            throws Exception {
        if (!name.contains(only)) {
            return;
        }
        TesterSpec spec = load.duration((windowSeconds + 3) * S).warmupDuration(5 * S).seed(1)
                .startDelay(S / 5).objective(S / 100);
        try (OpenTransport http = Transports.open(TransportOptions.connections(64))) {
            Scheduler loop = http.scheduler();
            long loopThread = onLoop(loop);
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long[] loopBytes = new long[2];
            long[] processBytes = new long[2];
            long[] sent = new long[2];
            RunListener listener = new RunListener() {
                @Override
                public void countedStart(long startNanos) {
                    loop.at(startNanos + 2 * S, () -> {
                        sent[0] = http.stats().sent();
                        loopBytes[0] = threads.getThreadAllocatedBytes(loopThread);
                        processBytes[0] = processAllocatedBytes(threads);
                    });
                    loop.at(startNanos + (2 + windowSeconds) * S, () -> {
                        sent[1] = http.stats().sent();
                        loopBytes[1] = threads.getThreadAllocatedBytes(loopThread);
                        processBytes[1] = processAllocatedBytes(threads);
                    });
                }
            };
            ExecutorService writer = Executors.newSingleThreadExecutor(); // the files, off the loop, as in a real run
            RunResult result;
            try {
                result = LoadRun.run(spec, loop, http.transport(), source, dir.resolve(name.replaceAll("[^a-z0-9]", "")),
                        LoadRun.RunOptions.defaults().withListener(listener).withWriter(writer));
            } finally {
                writer.shutdown();
            }
            long requests = sent[1] - sent[0];
            if (requests <= 0 || result.counts().errors() > 0) {
                throw new IllegalStateException(name + ": " + requests + " requests in the window, "
                        + result.counts().errors() + " errors");
            }
            System.out.printf("| %s | %,d | %.1f | %.1f |%n", name, requests,
                    (loopBytes[1] - loopBytes[0]) / (double) requests,
                    (processBytes[1] - processBytes[0]) / (double) requests);
        }
    }

    /** The id of the scheduler's thread (the event loop's). */
    private static long onLoop(Scheduler loop) throws Exception {
        CompletableFuture<Long> id = new CompletableFuture<>();
        loop.at(loop.nanoTime(), () -> id.complete(Thread.currentThread().getId()));
        return id.get(10, TimeUnit.SECONDS);
    }

    /** Bytes allocated so far by the threads alive now (a thread that ended took its count with it). */
    private static long processAllocatedBytes(com.sun.management.ThreadMXBean threads) {
        long total = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            total += Math.max(0, bytes);
        }
        return total;
    }
}
