package io.loadsmith.stall.clock;

/** Conversions between the wire's milliseconds (fractions allowed) and the nanoseconds used inside. */
public final class Nanos {

    public static final long PER_MILLI = 1_000_000L;
    public static final long PER_SECOND = 1_000_000_000L;

    private Nanos() {
    }

    /** Milliseconds (fractions allowed) to nanoseconds, rounded to the nearest nanosecond. */
    public static long fromMillis(double millis) {
        return Math.round(millis * PER_MILLI);
    }

    /** Nanoseconds to milliseconds, as a double. */
    public static double toMillis(long nanos) {
        return nanos / (double) PER_MILLI;
    }
}
