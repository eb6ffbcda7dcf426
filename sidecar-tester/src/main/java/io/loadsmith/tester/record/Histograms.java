package io.loadsmith.tester.record;

import org.HdrHistogram.Histogram;

/**
 * The histogram shape every loadsmith view uses: values in <b>microseconds</b>, 1 µs to 1 hour,
 * 3 significant digits. Nanosecond inputs are rounded to the nearest microsecond and clamped to the range.
 */
public final class Histograms {

    /** The highest trackable value: one hour, in microseconds. */
    public static final long HIGHEST_MICROS = 3_600_000_000L;
    public static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {
    }

    /** A new empty histogram of the standard shape. */
    public static Histogram create() {
        return new Histogram(1, HIGHEST_MICROS, SIGNIFICANT_DIGITS);
    }

    /** Nanoseconds to the microseconds recorded (rounded half up, clamped to [0, 1 h]). */
    public static long micros(long nanos) {
        if (nanos <= 0) {
            return 0;
        }
        return Math.min((nanos + 500) / 1000, HIGHEST_MICROS);
    }

    /** A recorded microsecond value as milliseconds. */
    public static double millis(double micros) {
        return micros / 1000.0;
    }
}
