package io.loadsmith.tester.bench;

import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The engine's own cost, on the simulator (no network): wall time per simulated run and per request,
 * recording and the per-request log included. Run through {@code sidecar-tester/bench/engine-bench.sh};
 * figures depend on the box (ours is a shared 2-core machine): read medians and ratios.
 *
 * <p>Arguments: {@code quick} (the 60 s / 50/s run and the 1,000,000-request run) or {@code soak}
 * (10 simulated minutes at 20,000/s: 12,000,000 requests; run it under a small -Xmx to show memory is flat).
 */
public final class EngineBench {

    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "quick";
        Path dir = Files.createTempDirectory("loadsmith-bench");
        try {
            if (what.equals("small")) {
                StallPlan plan = StallPlan.seeded(new SeededPlanSpec(7, 4 * S, 100 * MS, 500 * MS, 60 * S), StallKind.BLOCK);
                for (int i = 0; i < 60; i++) {
                    long t0 = System.nanoTime();
                    Simulation.run(TesterSpec.open(50).duration(60 * S).seed(1).objective(50 * MS),
                            new Simulation.SimulatedTarget(1, ServiceTime.constant(10 * MS), plan), null, dir.resolve("s" + i));
                    System.out.printf("%.1f ms%n", (System.nanoTime() - t0) / 1e6);
                }
            } else if (what.equals("alloc")) {
                AllocationBench.main(args);
            } else if (what.equals("scheduler")) {
                scheduler();
            } else if (what.equals("soak")) {
                soak(dir);
            } else {
                quick(dir);
            }
        } finally {
            try (Stream<Path> paths = Files.walk(dir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static void quick(Path dir) throws Exception {
        StallPlan plan = StallPlan.seeded(new SeededPlanSpec(7, 4 * S, 100 * MS, 500 * MS, 60 * S), StallKind.BLOCK);
        Simulation.SimulatedTarget small = new Simulation.SimulatedTarget(1, ServiceTime.constant(10 * MS), plan);
        TesterSpec sixty = TesterSpec.open(50).duration(60 * S).seed(1).objective(50 * MS);
        long[] smallNanos = new long[15];
        for (int i = 0; i < smallNanos.length; i++) {
            long t0 = System.nanoTime();
            Simulation.run(sixty, small, null, dir.resolve("small-" + i));
            smallNanos[i] = System.nanoTime() - t0;
        }
        System.out.printf("60 s simulated, open 50/s (3,000 requests), 1 server 10 ms, seeded stalls: "
                + "first run %.1f ms, median of the next 14 %.2f ms%n", smallNanos[0] / 1e6,
                median(Arrays.copyOfRange(smallNanos, 1, smallNanos.length)) / 1e6);

        Simulation.SimulatedTarget big = new Simulation.SimulatedTarget(4, ServiceTime.exponential(150_000), plan);
        TesterSpec million = TesterSpec.open(20_000).duration(50 * S).seed(2).objective(10 * MS);
        long[] bigNanos = new long[5];
        RunResult last = null;
        for (int i = 0; i < bigNanos.length; i++) {
            long t0 = System.nanoTime();
            last = Simulation.run(million, big, null, dir.resolve("big-" + i));
            bigNanos[i] = System.nanoTime() - t0;
        }
        long requests = last.counts().sent();
        long med = median(Arrays.copyOfRange(bigNanos, 1, bigNanos.length));
        System.out.printf("1,000,000 simulated requests (open Poisson 20,000/s for 50 s, 4 servers, exp. 0.15 ms): "
                        + "%d requests, median %.2f s (first %.2f s), %.0f ns per request (engine + simulator + "
                        + "recording + request log), process CPU %.0f ns per request%n",
                requests, med / 1e9, bigNanos[0] / 1e9, med / (double) requests, last.cost().cpuNsPerRequest());
    }

    static void soak(Path dir) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 4, ServiceTime.exponential(150_000), 3);
        StallPlan plan = StallPlan.seeded(new SeededPlanSpec(7, 4 * S, 100 * MS, 500 * MS, 600 * S), StallKind.BLOCK);
        List<Long> usedAfterGc = new ArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                server.arm(plan, startNanos);
                for (int minute = 1; minute <= 10; minute++) {
                    scheduler.at(startNanos + minute * 60 * S - 30 * S, () -> {
                        System.gc();
                        usedAfterGc.add(memory.getHeapMemoryUsage().getUsed());
                    });
                }
            }
        };
        long t0 = System.nanoTime();
        RunResult result = LoadRun.run(TesterSpec.open(20_000).duration(600 * S).seed(4).objective(10 * MS),
                scheduler, server, RequestSource.get(Simulation.SIMULATED_URI), dir.resolve("soak"),
                LoadRun.RunOptions.defaults().withListener(listener));
        long wall = System.nanoTime() - t0;
        System.out.printf("soak: 10 simulated minutes at 20,000/s: %d requests in %.1f s (%.0f ns per request), "
                        + "-Xmx %d MB, heap used after GC at each simulated minute (MB): %s, request log %d MB%n",
                result.counts().sent(), wall / 1e9, wall / (double) result.counts().sent(),
                Runtime.getRuntime().maxMemory() >> 20,
                usedAfterGc.stream().map(b -> String.valueOf(b >> 20)).toList(),
                Files.size(dir.resolve("soak").resolve("requests.bin")) >> 20);
    }

    /**
     * How late the real schedulers run tasks: 5,000 tasks 200 µs apart (1 s), three times each, for
     * SystemScheduler and for the default transport's event loop, with the CPU its thread used.
     */
    static void scheduler() throws Exception {
        for (String name : List.of("SystemScheduler", "event loop")) {
            for (int round = 0; round < 3; round++) {
                try (io.loadsmith.tester.transport.OpenTransport loop = name.equals("event loop")
                        ? io.loadsmith.tester.client.Transports.open(
                                io.loadsmith.tester.transport.TransportOptions.connections(1))
                        : null;
                     io.loadsmith.tester.scheduler.SystemScheduler system = loop == null
                        ? io.loadsmith.tester.scheduler.SystemScheduler.start() : null) {
                    lateness(name, loop != null ? loop.scheduler() : system);
                }
            }
        }
    }

    private static void lateness(String name, io.loadsmith.tester.scheduler.Scheduler scheduler) throws Exception {
        int n = 5_000;
        long[] lateness = new long[n];
        long[] threadCpu = new long[2];
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(n);
        long base = scheduler.nanoTime() + 50 * MS;
        scheduler.at(scheduler.nanoTime(), () -> {
            threadCpu[0] = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                int index = i;
                long at = base + i * 200_000L;
                scheduler.at(at, () -> {
                    lateness[index] = scheduler.nanoTime() - at;
                    if (index == n - 1) {
                        threadCpu[1] = threads.getCurrentThreadCpuTime();
                    }
                    done.countDown();
                });
            }
        });
        done.await();
        Arrays.sort(lateness);
        System.out.printf("%s lateness over %d tasks 200 µs apart: p50 %.1f µs, p99 %.1f µs, p99.9 %.1f µs, "
                + "max %.1f µs; its thread's CPU %.1f µs per task%n", name, n, lateness[n / 2] / 1e3,
                lateness[n * 99 / 100] / 1e3, lateness[n * 999 / 1000] / 1e3, lateness[n - 1] / 1e3,
                (threadCpu[1] - threadCpu[0]) / 1e3 / n);
    }

    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
