package io.loadsmith.stall.bench;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.ArmResult;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.control.StallRecord;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.gate.GateWindow;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures, on the real clock, how exactly the controller opens and closes stall windows: over N short
 * stalls (default 1,000 of 2 ms, 10 ms apart, block kind), the start lateness (real start − planned start)
 * and the release lateness of a held request (when a thread held in the window runs again − the window's
 * end), which is the duration error a request sees. Prints p50, p99 and max in microseconds.
 *
 * <p>Run with the {@code bench} profile (docs/benchmarks.md): arguments {@code [stalls] [kind]}.
 */
public final class StallTimingBenchmark {

    private static final long MS = 1_000_000L;

    private StallTimingBenchmark() {
    }

    public static void main(String[] args) throws InterruptedException {
        int stalls = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
        StallKind kind = args.length > 1 ? StallKind.fromWireName(args[1]) : StallKind.BLOCK;
        long durationNanos = 2 * MS;
        long gapNanos = 10 * MS;
        System.out.printf(Locale.ROOT, "%d stalls of %d ms every %d ms, kind %s, %d cores, Java %s%n", stalls,
                durationNanos / MS, gapNanos / MS, kind.wireName(), Runtime.getRuntime().availableProcessors(),
                Runtime.version());

        Clock clock = Clock.system();
        StallGate gate = new StallGate();
        List<PlannedStall> windows = new ArrayList<>();
        for (int i = 0; i < stalls; i++) {
            windows.add(new PlannedStall(i, 50 * MS + gapNanos * i, durationNanos));
        }
        long[] releaseLatenessNanos = new long[stalls];
        int[] probed = new int[1];
        try (StallController controller = new StallController(clock, gate)) {
            Thread probe = new Thread(() -> probe(gate, clock, releaseLatenessNanos, probed), "probe");
            probe.setDaemon(true);
            probe.start();
            ArmResult armed = controller.arm(StallPlan.explicit(windows, kind));
            while (controller.armed()) {
                Thread.sleep(20);
            }
            probe.interrupt();
            probe.join(1_000);
            List<StallRecord> records = controller.stalls(armed.runId(), 0).stalls();
            long[] startLatenessNanos = new long[records.size()];
            for (int i = 0; i < records.size(); i++) {
                startLatenessNanos[i] = records.get(i).startNanos() - records.get(i).plannedStartNanos();
            }
            report("start lateness (real start - planned start)", startLatenessNanos);
            report("release lateness of a held request (runs again - window end)",
                    Arrays.copyOf(releaseLatenessNanos, probed[0]));
        }
    }

    /** Enters every window shortly after it opens and notes how late it is let go. */
    private static void probe(StallGate gate, Clock clock, long[] releaseLatenessNanos, int[] probed) {
        GateWindow last = null;
        while (!Thread.currentThread().isInterrupted() && probed[0] < releaseLatenessNanos.length) {
            GateWindow window = gate.openWindow();
            if (window == null || window == last) {
                LockSupport.parkNanos(100_000);
                continue;
            }
            last = window;
            long endNanos = window.endNanos();
            if (clock.nanoTime() - endNanos >= 0) {
                continue; // found it too late to be held
            }
            gate.pass(); // held until the window's end
            releaseLatenessNanos[probed[0]++] = clock.nanoTime() - endNanos;
        }
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            System.out.println(what + ": no samples");
            return;
        }
        long under100Micros = Arrays.stream(sorted).filter(sample -> sample < 100_000).count();
        System.out.printf(Locale.ROOT, "%s over %d: p50 %.1f us, p90 %.1f us, p99 %.1f us, max %.1f us, min %.1f us, "
                        + "under 100 us: %.1f %%%n", what, sorted.length, micros(percentile(sorted, 0.50)),
                micros(percentile(sorted, 0.90)), micros(percentile(sorted, 0.99)), micros(sorted[sorted.length - 1]),
                micros(sorted[0]), 100.0 * under100Micros / sorted.length);
    }

    private static long percentile(long[] sorted, double p) {
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double micros(long nanos) {
        return nanos / 1_000.0;
    }
}
