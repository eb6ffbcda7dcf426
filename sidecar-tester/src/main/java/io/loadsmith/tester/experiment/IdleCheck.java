package io.loadsmith.tester.experiment;

import io.loadsmith.tester.result.Experiment;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The check before each run of an experiment: waits until the previous run's service processes and tester
 * threads have exited, the CPUs are idle enough over 2 s and the 1-minute load average is at most the core
 * count, at most a timeout; then records what it saw last ({@link Experiment.IdleResult}), busy when it gave up.
 *
 * <pre>{@code
 * Experiment.IdleResult seen = IdleCheck.waitUntilQuiet(0.95, 20_000_000_000L, IdleCheck.system(leftovers));
 * if (seen.busy()) { result = result.withWarnings(List.of(seen.warning())); }
 * }</pre>
 */
public final class IdleCheck {

    private IdleCheck() {
    }

    /** One look at the box. */
    public record Reading(double idleShare, double loadAverage, int cores, int leftoverProcesses,
                          int leftoverTesterThreads) {
    }

    /** Where the readings come from: the box, or a test. */
    public interface Probe {
        /** Looks at the box; may take a while (the idle share is measured over 2 s). */
        Reading read() throws InterruptedException;

        /** Now, in nanoseconds (monotonic). */
        long nanoTime();
    }

    /**
     * Reads until the box is quiet or {@code timeoutNanos} have passed since the first reading began.
     *
     * @param wantedIdleShare 0 to 1
     */
    public static Experiment.IdleResult waitUntilQuiet(double wantedIdleShare, long timeoutNanos, Probe probe)
            throws InterruptedException {
        long start = probe.nanoTime();
        while (true) {
            Reading r = probe.read();
            boolean quiet = quiet(r, wantedIdleShare);
            long waited = probe.nanoTime() - start;
            if (quiet || waited >= timeoutNanos) {
                return new Experiment.IdleResult(round3(r.idleShare()), wantedIdleShare, round3(r.loadAverage()), r.cores(),
                        round3(waited / 1e9), r.leftoverProcesses(), r.leftoverTesterThreads(), !quiet);
            }
        }
    }

    /** Whether a reading is quiet: nothing of the previous run left, CPUs idle enough, load at most the cores. */
    static boolean quiet(Reading r, double wantedIdleShare) {
        return r.leftoverProcesses() == 0 && r.leftoverTesterThreads() == 0
                && (r.idleShare() < 0 || r.idleShare() >= wantedIdleShare)
                && (r.loadAverage() < 0 || r.loadAverage() <= r.cores());
    }

    /**
     * This box: the idle share over 2 s ({@code /proc/stat}), the system load average, the live ones among
     * {@code leftovers} (the previous service's processes) and the live threads of a tester's transport
     * ({@code loadsmith-loop*}, {@code loadsmith-http*}) in this JVM.
     */
    public static Probe system(List<ProcessHandle> leftovers) {
        return new Probe() {
            @Override
            public Reading read() throws InterruptedException {
                double idle = CpuIdle.idleShare(2_000);
                return new Reading(idle, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                        Runtime.getRuntime().availableProcessors(),
                        (int) leftovers.stream().filter(ProcessHandle::isAlive).count(), testerThreads());
            }

            @Override
            public long nanoTime() {
                return System.nanoTime();
            }
        };
    }

    /** Live threads of a tester's transport in this JVM. */
    static int testerThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && (t.getName().startsWith("loadsmith-loop") || t.getName().startsWith("loadsmith-http")))
                .count();
    }

    private static double round3(double value) {
        return value < 0 ? value : Math.round(value * 1000) / 1000.0;
    }
}
