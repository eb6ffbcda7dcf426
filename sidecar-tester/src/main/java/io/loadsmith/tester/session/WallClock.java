package io.loadsmith.tester.session;

import java.time.Instant;

/**
 * One moment read on the wall clock and on the monotonic clock ({@code System.nanoTime()}) together, to
 * turn one into the other: the wall clock names the common start of runs in different processes or on
 * different hosts, the monotonic clock times everything within a run.
 *
 * @param epochNanos     the wall clock, nanoseconds since 1970-01-01T00:00:00Z
 * @param monotonicNanos the monotonic clock at the same moment (to within the two reads, microseconds)
 */
public record WallClock(long epochNanos, long monotonicNanos) {

    /** Reads both clocks now: the wall clock between two monotonic reads, paired with their middle. */
    public static WallClock now() {
        long before = System.nanoTime();
        Instant wall = Instant.now();
        long after = System.nanoTime();
        return new WallClock(wall.getEpochSecond() * 1_000_000_000L + wall.getNano(), before + (after - before) / 2);
    }

    /** The monotonic time of the wall-clock instant {@code epochMillis}. */
    public long toMonotonicNanos(long epochMillis) {
        return monotonicNanos + (epochMillis * 1_000_000L - epochNanos);
    }

    /** The wall-clock instant, in epoch milliseconds (rounded), of the monotonic time {@code nanos}. */
    public long toEpochMillis(long nanos) {
        return Math.round((epochNanos + (nanos - monotonicNanos)) / 1e6);
    }
}
