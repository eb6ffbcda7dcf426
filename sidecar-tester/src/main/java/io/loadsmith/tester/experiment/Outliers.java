package io.loadsmith.tester.experiment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The rounds of one arm (in one stall state, one metric) whose value is far from the arm's other rounds. Each
 * round is held against the others (at least {@link #MIN_OTHERS} of them): it is an outlier when its value is
 * more than {@link #RATIO} times the others' median or less than the median divided by it (rule {@code ratio}),
 * or when it lies outside the others' range by more than that range, and by more than a tenth of their median
 * (rule {@code range}; the tenth keeps rounds that agree to the microsecond from calling every small
 * difference an outlier).
 *
 * <pre>{@code
 * Outliers.of(Map.of(1, 1009.0, 2, 62.0, 3, 80.0, 4, 71.0, 5, 66.0));
 * // [Finding[round=1, valueMs=1009.0, othersMedianMs=68.5, othersMinMs=62.0, othersMaxMs=80.0, rule=ratio]]
 * }</pre>
 */
public final class Outliers {

    /** How many times the others' median (or how many times below it) makes an outlier. */
    public static final double RATIO = 3.0;
    /**
     * Fewer other rounds than this give no verdict (an experiment needs 4 rounds): against two others, one noisy
     * round makes the other two look far off.
     */
    public static final int MIN_OTHERS = 3;
    /** The range rule also asks for a distance of at least this share of the others' median. */
    static final double RANGE_FLOOR = 0.1;

    private Outliers() {
    }

    /** One outlier round: its value, the others' median, lowest and highest (ms), and the rule it broke. */
    public record Finding(int round, double valueMs, double othersMedianMs, double othersMinMs, double othersMaxMs,
                          String rule) {
    }

    /** The outliers among {@code valueByRound} (round to ms), by round; null values are left out. */
    public static List<Finding> of(Map<Integer, Double> valueByRound) {
        SortedMap<Integer, Double> values = new TreeMap<>();
        valueByRound.forEach((round, value) -> {
            if (value != null) {
                values.put(round, value);
            }
        });
        List<Finding> found = new ArrayList<>();
        if (values.size() < MIN_OTHERS + 1) {
            return found;
        }
        for (Map.Entry<Integer, Double> run : values.entrySet()) {
            double[] others = values.entrySet().stream().filter(e -> !e.getKey().equals(run.getKey()))
                    .mapToDouble(Map.Entry::getValue).sorted().toArray();
            double median = median(others);
            double min = others[0];
            double max = others[others.length - 1];
            String rule = rule(run.getValue(), median, min, max);
            if (rule != null) {
                found.add(new Finding(run.getKey(), run.getValue(), median, min, max, rule));
            }
        }
        return found;
    }

    private static String rule(double value, double median, double min, double max) {
        if (median > 0 && (value > RATIO * median || value < median / RATIO)) {
            return "ratio";
        }
        double range = max - min;
        double outside = value > max ? value - max : value < min ? min - value : 0;
        return outside > Math.max(range, RANGE_FLOOR * Math.abs(median)) ? "range" : null;
    }

    private static double median(double[] sorted) {
        double[] copy = sorted.clone();
        Arrays.sort(copy);
        int mid = copy.length / 2;
        return copy.length % 2 == 1 ? copy[mid] : (copy[mid - 1] + copy[mid]) / 2;
    }
}
