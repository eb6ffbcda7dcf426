package io.loadsmith.tester.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Two arms compared round by round. In each round both arms ran with one seed (and the same stalls), so
 * their values pair up; the difference of a round is {@code a - b}. The two are <em>told apart</em> from
 * run-to-run noise only if every paired difference has the same sign (none is zero) and the two sets of
 * values do not overlap (every value of one is below every value of the other), over at least
 * {@link #MIN_ROUNDS} paired rounds.
 *
 * @param a             the first arm's name
 * @param b             the second arm's name
 * @param metric        what was compared, e.g. {@code p99} (corrected) or {@code p99:service}
 * @param stall         whether the runs compared had stalls on
 * @param rounds        the rounds both arms have a value for, in order
 * @param differencesMs {@code a - b} per round, in milliseconds
 * @param toldApart     the verdict
 */
public record PairedComparison(String a, String b, String metric, boolean stall, List<Integer> rounds,
                               List<Double> differencesMs, boolean toldApart) {

    /** Fewer paired rounds than this never tell two arms apart. */
    public static final int MIN_ROUNDS = 2;

    public PairedComparison {
        rounds = List.copyOf(rounds);
        differencesMs = List.copyOf(differencesMs);
    }

    /**
     * Compares two arms' values by round (round number to milliseconds); rounds only one arm has are skipped.
     */
    public static PairedComparison of(String a, String b, String metric, boolean stall, Map<Integer, Double> aByRound,
                                      Map<Integer, Double> bByRound) {
        SortedMap<Integer, Double> left = new TreeMap<>(aByRound);
        List<Integer> rounds = new ArrayList<>();
        List<Double> differences = new ArrayList<>();
        double maxA = Double.NEGATIVE_INFINITY;
        double minA = Double.POSITIVE_INFINITY;
        double maxB = Double.NEGATIVE_INFINITY;
        double minB = Double.POSITIVE_INFINITY;
        int positive = 0;
        int negative = 0;
        for (Map.Entry<Integer, Double> entry : left.entrySet()) {
            Double other = bByRound.get(entry.getKey());
            if (other == null || entry.getValue() == null) {
                continue;
            }
            double valueA = entry.getValue();
            double valueB = other;
            double difference = valueA - valueB;
            rounds.add(entry.getKey());
            differences.add(difference);
            positive += difference > 0 ? 1 : 0;
            negative += difference < 0 ? 1 : 0;
            maxA = Math.max(maxA, valueA);
            minA = Math.min(minA, valueA);
            maxB = Math.max(maxB, valueB);
            minB = Math.min(minB, valueB);
        }
        int n = differences.size();
        boolean sameSign = n > 0 && (positive == n || negative == n);
        boolean apart = maxA < minB || maxB < minA;
        return new PairedComparison(a, b, metric, stall, rounds, differences, n >= MIN_ROUNDS && sameSign && apart);
    }
}
