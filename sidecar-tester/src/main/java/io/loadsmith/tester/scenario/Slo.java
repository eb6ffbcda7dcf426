package io.loadsmith.tester.scenario;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One service level objective of a scenario, parsed from text:
 * <ul>
 *   <li>{@code p99 < 500ms}, {@code p99.9 <= 1s}, {@code max < 2s}, {@code mean < 20ms}: on corrected latency
 *       (from the intended send), or on service latency (from the actual send) with {@code :service}
 *       ({@code p99:service < 50ms});</li>
 *   <li>{@code above(10ms) < 1%}: the share of requests slower than 10 ms (corrected unless {@code :service});</li>
 *   <li>{@code errors < 0.1%}: the share of sent requests that failed.</li>
 * </ul>
 *
 * @param expr          the text as written
 * @param metric        what is measured
 * @param percentile    for {@link Metric#PERCENTILE}: 0 to 100
 * @param service       true for service latency, false for corrected
 * @param thresholdNanos for {@link Metric#ABOVE}: the latency counted above
 * @param limit         nanoseconds for latency metrics, a fraction (0.01 = 1%) for ABOVE and ERRORS
 * @param inclusive     {@code <=} rather than {@code <}
 */
public record Slo(String expr, Metric metric, double percentile, boolean service, long thresholdNanos, double limit,
                  boolean inclusive) {

    public enum Metric { PERCENTILE, MAX, MEAN, ABOVE, ERRORS }

    private static final Pattern LATENCY = Pattern.compile(
            "(p([0-9]+(?:\\.[0-9]+)?)|max|mean)(?::(service|corrected))?\\s*(<=|<)\\s*(\\S+)");
    private static final Pattern ABOVE = Pattern.compile(
            "above\\(\\s*([^)]+?)\\s*\\)(?::(service|corrected))?\\s*(<=|<)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*%");
    private static final Pattern ERRORS = Pattern.compile("errors\\s*(<=|<)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*%");

    /** What an SLO is checked against: one tester's measurements. */
    public interface Measured {
        /** A percentile (0..100) of service or corrected latency, in nanoseconds. */
        long percentileNanos(boolean service, double percentile);

        long maxNanos(boolean service);

        double meanNanos(boolean service);

        /** Requests whose latency is above the threshold. */
        long countAbove(boolean service, long thresholdNanos);

        /** Requests with a latency (completed and failed with an answer). */
        long measured();

        /** Requests sent. */
        long sent();

        long errors();
    }

    /**
     * The verdict of one SLO.
     *
     * @param valueMillis  the measured latency in ms for latency metrics; null for shares
     * @param valuePercent the measured share in percent for ABOVE and ERRORS; null for latencies
     */
    public record Verdict(String expr, Double valueMillis, Double valuePercent, boolean pass) {
    }

    /**
     * @throws IllegalArgumentException with a message for the user when the text is not an SLO
     */
    public static Slo parse(String text) {
        String expr = text.trim();
        Matcher m = LATENCY.matcher(expr);
        if (m.matches()) {
            Metric metric;
            double percentile = 0;
            if (m.group(2) != null) {
                metric = Metric.PERCENTILE;
                percentile = percentile(m.group(2));
            } else {
                metric = m.group(1).equals("max") ? Metric.MAX : Metric.MEAN;
            }
            long limit;
            try {
                limit = Durations.parse(m.group(5));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"" + expr + "\": the limit " + e.getMessage());
            }
            return new Slo(expr, metric, percentile, "service".equals(m.group(3)), 0, limit, m.group(4).equals("<="));
        }
        m = ABOVE.matcher(expr);
        if (m.matches()) {
            long threshold;
            try {
                threshold = Durations.parse(m.group(1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"" + expr + "\": the threshold " + e.getMessage());
            }
            double percent = Double.parseDouble(m.group(4));
            checkPercent(expr, percent);
            return new Slo(expr, Metric.ABOVE, 0, "service".equals(m.group(2)), threshold, percent / 100,
                    m.group(3).equals("<="));
        }
        m = ERRORS.matcher(expr);
        if (m.matches()) {
            double percent = Double.parseDouble(m.group(2));
            checkPercent(expr, percent);
            return new Slo(expr, Metric.ERRORS, 0, false, 0, percent / 100, m.group(1).equals("<="));
        }
        throw new IllegalArgumentException("\"" + expr + "\" is not an SLO; write it like \"p99 < 500ms\", "
                + "\"p99:service < 50ms\", \"max < 2s\", \"above(10ms) < 1%\" or \"errors < 0.1%\"");
    }

    private static double percentile(String digits) {
        double value;
        if (digits.contains(".") || digits.length() <= 2) {
            value = Double.parseDouble(digits);
        } else if (digits.startsWith("99")) {
            value = Double.parseDouble("99." + digits.substring(2)); // p999 = p99.9, p9999 = p99.99
        } else {
            value = 101;
        }
        if (!(value > 0 && value <= 100)) {
            throw new IllegalArgumentException("p" + digits + " is not a percentile (write p50, p90, p99, p99.9 or p999)");
        }
        return value;
    }

    private static void checkPercent(String expr, double percent) {
        if (percent > 100) {
            throw new IllegalArgumentException("\"" + expr + "\": a share must be <= 100% (got " + percent + "%)");
        }
    }

    /** Checks this SLO against a tester's measurements. An empty run passes only share SLOs of 0 requests. */
    public Verdict evaluate(Measured measured) {
        switch (metric) {
            case ABOVE, ERRORS -> {
                long of = metric == Metric.ABOVE ? measured.measured() : measured.sent();
                long count = metric == Metric.ABOVE ? measured.countAbove(service, thresholdNanos) : measured.errors();
                double share = of == 0 ? 0 : count / (double) of;
                boolean pass = inclusive ? share <= limit : share < limit;
                return new Verdict(expr, null, share * 100, pass);
            }
            default -> {
                if (measured.measured() == 0) {
                    return new Verdict(expr, null, null, false);
                }
                double nanos = switch (metric) {
                    case PERCENTILE -> measured.percentileNanos(service, percentile);
                    case MAX -> measured.maxNanos(service);
                    default -> measured.meanNanos(service);
                };
                boolean pass = inclusive ? nanos <= limit : nanos < limit;
                return new Verdict(expr, nanos / 1e6, null, pass);
            }
        }
    }
}
