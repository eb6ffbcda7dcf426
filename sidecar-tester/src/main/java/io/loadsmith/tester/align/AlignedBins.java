package io.loadsmith.tester.align;

/**
 * The bins of the stall-aligned plot: time from a stall's start, from {@link #FROM_STALLS} to
 * {@link #TO_STALLS} stall lengths, cut into bins of a round width near a twentieth of the stall length
 * (1, 2 or 5 times a power of ten, in nanoseconds; never below 100 µs). A 100 ms stall gets 5 ms bins from
 * -100 ms to +200 ms: 60 bins.
 *
 * @param stallNanos the stall length the bins are drawn for (> 0)
 * @param binNanos   the width of one bin (> 0)
 * @param fromNanos  where the first bin starts, relative to the stall's start (< 0)
 * @param binCount   how many bins
 */
public record AlignedBins(long stallNanos, long binNanos, long fromNanos, int binCount) {

    /** The first bin starts this many stall lengths before the stall. */
    public static final int FROM_STALLS = -1;
    /** The last bin ends this many stall lengths after the stall's start. */
    public static final int TO_STALLS = 2;
    /** The narrowest bin chosen. */
    public static final long MIN_BIN_NANOS = 100_000L;

    /** Bins for stalls of {@code stallNanos}. */
    public static AlignedBins forStall(long stallNanos) {
        if (stallNanos <= 0) {
            throw new IllegalArgumentException("stall length must be > 0 ns (got " + stallNanos + ")");
        }
        long binNanos = Math.max(MIN_BIN_NANOS, roundDown125(stallNanos / 20));
        long fromNanos = FROM_STALLS * stallNanos;
        long spanNanos = (TO_STALLS - FROM_STALLS) * stallNanos;
        int binCount = (int) ((spanNanos + binNanos - 1) / binNanos);
        return new AlignedBins(stallNanos, binNanos, fromNanos, binCount);
    }

    /** The largest 1, 2 or 5 times a power of ten that is <= value (1 for values below 1). */
    static long roundDown125(long value) {
        long decade = 1;
        while (decade <= value / 10) {
            decade *= 10;
        }
        if (value >= 5 * decade) {
            return 5 * decade;
        }
        if (value >= 2 * decade) {
            return 2 * decade;
        }
        return decade;
    }

    /** Where the last bin ends, relative to the stall's start. */
    public long toNanos() {
        return fromNanos + binCount * binNanos;
    }

    /** The bin of a moment {@code offsetNanos} after a stall's start, or -1 if it is outside every bin. */
    public int binOf(long offsetNanos) {
        if (offsetNanos < fromNanos || offsetNanos >= toNanos()) {
            return -1;
        }
        return (int) ((offsetNanos - fromNanos) / binNanos);
    }
}
