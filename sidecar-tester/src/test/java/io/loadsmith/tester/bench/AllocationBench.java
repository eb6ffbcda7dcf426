package io.loadsmith.tester.bench;

import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Bytes the engine allocates per request, deterministically: a virtual-clock run against a transport that
 * allocates nothing (it answers every request after a fixed service time, through the engine's own post to
 * the scheduler), measured with {@code ThreadMXBean#getThreadAllocatedBytes} on the one thread that runs
 * everything, between 10 s and 50 s of the counted run (no start-up, no file closing), after two warm-up
 * runs. The figure covers the engine, the recorder, the request log and the virtual scheduler. Run through
 * {@code sidecar-tester/bench/engine-bench.sh alloc}.
 */
public final class AllocationBench {

    private static final long S = 1_000_000_000L;
    private static final long SERVICE_NANOS = 200_000;

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("loadsmith-alloc");
        try {
            report("open Poisson 20,000/s", TesterSpec.open(20_000).duration(60 * S).seed(1).objective(S / 100), dir);
            report("closed, 16 connections", TesterSpec.closed(16).duration(60 * S).seed(1), dir);
            report("paced, 16 connections every 1 ms", TesterSpec.paced(16, 1_000_000L).duration(60 * S).seed(1), dir);
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void report(String name, TesterSpec spec, Path dir) throws Exception {
        double bytes = 0;
        for (int round = 0; round < 3; round++) {
            bytes = bytesPerRequest(spec, dir.resolve(name.replaceAll("[^a-z0-9]", "") + round));
        }
        System.out.printf("%s: %.1f bytes allocated per request (steady state, third run)%n", name, bytes);
    }

    /** Bytes per request ended between 10 s and 50 s of the counted run. */
    static double bytesPerRequest(TesterSpec spec, Path runDir) throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        VirtualScheduler scheduler = new VirtualScheduler();
        long[] bytes = new long[2];
        long[] ended = new long[2];
        Transport transport = new Transport() {
            @Override
            public void send(RequestSpec request, Exchange exchange) {
                long now = scheduler.nanoTime();
                exchange.sent(now);
                exchange.completed(now + SERVICE_NANOS, 200, Outcome.OK, null);
                ended[1]++;
            }

            @Override
            public void cancelAll() {
            }
        };
        RunListener listener = new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                scheduler.at(startNanos + 10 * S, () -> {
                    ended[0] = ended[1];
                    bytes[0] = threads.getCurrentThreadAllocatedBytes();
                });
                scheduler.at(startNanos + 50 * S, () -> {
                    bytes[1] = threads.getCurrentThreadAllocatedBytes();
                    ended[0] = ended[1] - ended[0];
                });
            }
        };
        RunResult result = LoadRun.run(spec, scheduler, transport, RequestSource.get(Simulation.SIMULATED_URI),
                runDir, LoadRun.RunOptions.defaults().withListener(listener));
        if (result.counts().sent() == 0) {
            throw new IllegalStateException("nothing sent");
        }
        return (bytes[1] - bytes[0]) / (double) ended[0];
    }
}
