package io.loadsmith.tester.scenario;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations of scenario files: a number and a unit, {@code ns us ms s m h} ({@code 14.65ms}, {@code 2m}). */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ns|us|µs|ms|s|m|h)?\\s*");

    private Durations() {
    }

    /**
     * Parses a duration to nanoseconds, rounded to the nearest nanosecond.
     *
     * @throws IllegalArgumentException with a message for the user when the text is not a duration
     */
    public static long parse(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("must be a duration like 250ms, 1.5s or 2m (got \"" + text + "\")");
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        String unit = m.group(2);
        if (unit == null) {
            if (amount.signum() == 0) {
                return 0;
            }
            throw new IllegalArgumentException("needs a unit: ns, us, ms, s, m or h (got \"" + text.trim() + "\")");
        }
        long perUnit = switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        BigDecimal nanos = amount.multiply(BigDecimal.valueOf(perUnit));
        if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0) {
            throw new IllegalArgumentException("is too long (got \"" + text.trim() + "\")");
        }
        return nanos.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
    }

    /** A short readable form: {@code 500ms}, {@code 1.5s}, {@code 250us}. */
    public static String format(long nanos) {
        if (nanos == 0) {
            return "0";
        }
        long[] units = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L};
        String[] names = {"h", "m", "s", "ms", "us", "ns"};
        for (int i = 0; i < units.length; i++) {
            if (Math.abs(nanos) >= units[i]) {
                return plain(nanos / (double) units[i]) + names[i];
            }
        }
        return nanos + "ns";
    }

    static String plain(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
