package io.loadsmith.stall.observe;

import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * How far apart the clock samples of the tick mapping may be (docs/pauses.md, "From JFR ticks to
 * System.nanoTime()"; {@code stall-service/bench/tick-spacing.sh}): for SECONDS it commits three
 * {@link SyncEvent}s every 100 ms as the sleeper does, each between two clock readings, and reads them back
 * through a JFR stream. Then, for each spacing (200 ms, 500 ms, 1 s, 2 s), a {@link TickMapper} is given only
 * the samples of every k-th commit and maps the ticks of the tight samples (at most 20 µs wide) taken midway
 * between them: the error is the mapped time against the sample's own midpoint, and "beyond" is the part of
 * it outside the sample's own half-width (what the spacing adds; a sample is only known to within it).
 */
public final class TickSpacingBench {

    private static final int SYNCS_PER_CALL = 3;
    private static final long CALL_NANOS = 100_000_000L;

    private record Sample(long sequence, long ticks, long beforeNanos, long afterNanos) {
        long call() {
            return (sequence - 1) / SYNCS_PER_CALL;
        }

        long width() {
            return afterNanos - beforeNanos;
        }
    }

    private TickSpacingBench() {
    }

    public static void main(String[] args) throws InterruptedException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 120;
        ConcurrentLinkedQueue<long[]> read = new ConcurrentLinkedQueue<>();
        long[] after = new long[seconds * 10 * SYNCS_PER_CALL + 64];
        try (RecordingStream stream = new RecordingStream()) {
            stream.enable(SyncEvent.class).withThreshold(Duration.ZERO).withoutStackTrace();
            stream.onEvent("loadsmith.ClockSync", e -> read.add(new long[] {
                e.getLong("sequence"), e.getLong("startTime"), e.getLong("beforeNanos")}));
            stream.startAsync();
            Thread.sleep(1_000);
            new SyncEvent().commit(); // the first commit sets JFR's writer up: a wide sample, not counted
            long sequence = 0;
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() - end < 0 && sequence + SYNCS_PER_CALL < after.length) {
                for (int i = 0; i < SYNCS_PER_CALL; i++) {
                    SyncEvent event = new SyncEvent();
                    event.sequence = ++sequence;
                    event.beforeNanos = System.nanoTime();
                    event.commit();
                    after[(int) sequence] = System.nanoTime();
                }
                LockSupport.parkNanos(CALL_NANOS);
            }
            Thread.sleep(2_500); // two flushes: every sample delivered
        }
        List<Sample> samples = new ArrayList<>();
        for (long[] r : read) {
            if (r[0] > 0) {
                samples.add(new Sample(r[0], r[1], r[2], after[(int) r[0]]));
            }
        }
        System.out.printf(Locale.ROOT, "%d samples over %d s, 3 every 100 ms%n%n", samples.size(), seconds);
        System.out.println("| samples kept | tested | error p50 | p99 | max | beyond the sample's half-width: p99 | max |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (int every : new int[] {2, 5, 10, 20}) {
            TickMapper mapper = new TickMapper();
            List<Sample> tested = new ArrayList<>();
            for (Sample s : samples) {
                if (s.call() % every == 0) {
                    mapper.add(s.ticks(), s.beforeNanos(), s.afterNanos());
                } else if (s.call() % every == every / 2 && s.width() <= TickMapper.ALWAYS_TIGHT_NANOS) {
                    tested.add(s);
                }
            }
            double[] error = new double[tested.size()];
            double[] beyond = new double[tested.size()];
            for (int i = 0; i < tested.size(); i++) {
                Sample s = tested.get(i);
                error[i] = Math.abs(mapper.toNanos(s.ticks()) - (s.beforeNanos() + s.width() / 2));
                beyond[i] = Math.max(0, error[i] - s.width() / 2.0);
            }
            Arrays.sort(error);
            Arrays.sort(beyond);
            System.out.printf(Locale.ROOT, "| every %,d ms | %d | %s | %s | %s | %s | %s |%n", every * 100, tested.size(),
                    us(at(error, 0.5)), us(at(error, 0.99)), us(at(error, 1)), us(at(beyond, 0.99)), us(at(beyond, 1)));
        }
    }

    private static double at(double[] sorted, double quantile) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.min(sorted.length - 1, (int) (sorted.length * quantile))];
    }

    private static String us(double nanos) {
        return String.format(Locale.ROOT, "%.1f µs", nanos / 1000);
    }
}
