package io.loadsmith.tester.grpc;

/**
 * The {@code grpc-timeout} request field: at most 8 digits and a unit ({@code n}, {@code u}, {@code m},
 * {@code S}, {@code M}, {@code H}), the finest unit that holds the value, so the deadline sent is exact to
 * within one unit of that unit.
 */
public final class GrpcTimeout {

    private static final long MAX_VALUE = 99_999_999L;
    private static final char[] UNITS = {'n', 'u', 'm', 'S', 'M', 'H'};
    private static final long[] UNIT_NANOS = {1L, 1_000L, 1_000_000L, 1_000_000_000L, 60_000_000_000L,
            3_600_000_000_000L};

    private GrpcTimeout() {
    }

    /** The field's value for a deadline {@code nanos} (> 0) after the send, rounded up to its unit. */
    public static String format(long nanos) {
        if (nanos <= 0) {
            throw new IllegalArgumentException("a deadline must be > 0 (got " + nanos + " ns)");
        }
        for (int i = 0; i < UNITS.length; i++) {
            long value = (nanos + UNIT_NANOS[i] - 1) / UNIT_NANOS[i];
            if (value <= MAX_VALUE) {
                return value + String.valueOf(UNITS[i]);
            }
        }
        return MAX_VALUE + "H";
    }

    /** The nanoseconds a field's value stands for, or -1 when it is not a valid value. */
    public static long parseNanos(String field) {
        if (field == null || field.length() < 2 || field.length() > 9) {
            return -1;
        }
        int unit = new String(UNITS).indexOf(field.charAt(field.length() - 1));
        String digits = field.substring(0, field.length() - 1);
        if (unit < 0 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(digits) * UNIT_NANOS[unit];
    }
}
