package io.loadsmith.tester.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A rate sweep against a latency bound: for each tested rate, in how many rounds its latency stayed
 * within the bound; per round, the highest tested rate that did (and every lower tested rate too: a rate
 * above a failing one does not count); and the highest rate that stayed within the bound in every round.
 *
 * @param boundMs          the latency bound, in milliseconds
 * @param metric           what was compared with it, e.g. {@code p99}
 * @param rates            the rates tested, ascending
 * @param roundsWithin     per rate (same order), in how many rounds it stayed within the bound
 * @param rounds           how many rounds were run
 * @param highestPerRound  per round (in round order), the highest rate within the bound; null when none
 * @param highestEveryRound the highest rate within the bound in every round; null when none
 */
public record RateSweep(double boundMs, String metric, List<Double> rates, List<Integer> roundsWithin, int rounds,
                        List<Double> highestPerRound, Double highestEveryRound) {

    /**
     * @param valuesMs rate to (round to milliseconds); a missing round counts as not within the bound
     * @param rounds   the round numbers run
     */
    public static RateSweep of(double boundMs, String metric, Map<Double, Map<Integer, Double>> valuesMs,
                               List<Integer> rounds) {
        SortedMap<Double, Map<Integer, Double>> byRate = new TreeMap<>(valuesMs);
        List<Double> rates = new ArrayList<>(byRate.keySet());
        List<Integer> within = new ArrayList<>();
        for (Map<Integer, Double> perRound : byRate.values()) {
            int count = 0;
            for (int round : rounds) {
                Double value = perRound.get(round);
                count += value != null && value <= boundMs ? 1 : 0;
            }
            within.add(count);
        }
        List<Double> highestPerRound = new ArrayList<>();
        for (int round : rounds) {
            Double highest = null;
            for (Map.Entry<Double, Map<Integer, Double>> entry : byRate.entrySet()) {
                Double value = entry.getValue().get(round);
                if (value == null || value > boundMs) {
                    break;
                }
                highest = entry.getKey();
            }
            highestPerRound.add(highest);
        }
        Double everyRound = null;
        for (Double highest : highestPerRound) {
            if (highest == null) {
                everyRound = null;
                break;
            }
            everyRound = everyRound == null ? highest : Math.min(everyRound, highest);
        }
        return new RateSweep(boundMs, metric, rates, within, rounds.size(), highestPerRound, everyRound);
    }
}
