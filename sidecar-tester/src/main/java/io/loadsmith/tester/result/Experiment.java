package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * What {@code loadsmith experiment} made of its runs: the top-level {@code experiment} of {@code results.json}
 * (docs/experiments.md). Latencies in milliseconds.
 *
 * @param name           the experiment's name
 * @param rounds         how many rounds ran
 * @param arms           the arms' names, in the file's order
 * @param stallStates    the stall states run ({@code true} on, {@code false} off)
 * @param metric         the compared metric, e.g. {@code p99} (corrected) or {@code p99:service}
 * @param seedOfRound1   the seed of round 1 (round r uses seed + r - 1)
 * @param order          per round, the runs in the order they ran ({@code arm/stall}, {@code arm/no-stall})
 * @param perArm         per arm and stall state, one row per round
 * @param pairs          the pairs of the file, per stall state
 * @param stallVsNoStall each arm with stalls against itself without; null unless both states ran
 * @param sweep          the rate sweep, per stall state; null without {@code sweep:}
 * @param windows        the window analysis; null without {@code windows:}
 */
public record Experiment(String name, int rounds, List<String> arms, List<Boolean> stallStates, String metric,
                         @JsonProperty("seed_of_round_1") long seedOfRound1, List<List<String>> order,
                         List<ArmRuns> perArm, List<Comparison> pairs, List<Comparison> stallVsNoStall, Sweeps sweep,
                         Windows windows) {

    public Experiment {
        arms = arms == null ? List.of() : List.copyOf(arms);
        stallStates = stallStates == null ? List.of() : List.copyOf(stallStates);
        order = order == null ? List.of() : List.copyOf(order);
        perArm = perArm == null ? List.of() : List.copyOf(perArm);
        pairs = pairs == null ? List.of() : List.copyOf(pairs);
    }

    /**
     * The arm a run belongs to: its {@code arm} field, else the longest arm name that the run's name equals or
     * starts with followed by a separator ("open r1 stall", "open-r1-on"), else -1.
     */
    public static int armOf(RunResult run, List<String> arms) {
        if (run.arm() != null) {
            return arms.indexOf(run.arm());
        }
        int best = -1;
        for (int i = 0; i < arms.size(); i++) {
            String arm = arms.get(i);
            boolean prefix = run.name().startsWith(arm)
                    && (run.name().length() == arm.length() || !Character.isLetterOrDigit(run.name().charAt(arm.length())));
            if (prefix && (best < 0 || arm.length() > arms.get(best).length())) {
                best = i;
            }
        }
        return best;
    }

    /** One arm in one stall state: its rounds. */
    public record ArmRuns(String arm, boolean stall, List<Round> rounds) {
    }

    /**
     * One run of an arm; the last four only for a run with stalls.
     *
     * @param sendsPerStall     sent during stalls per stall met (3 decimals)
     * @param overlappingShare  share of requests whose lifetime met a stall (6 decimals)
     */
    public record Round(int round, long seed, Summary corrected, Summary service, Summary estimated,
                        RunResult.AboveObjective aboveObjective, long sent, double achievedRate, Integer stallsMet,
                        Long sentDuringStalls, Double sendsPerStall, Double overlappingShare) {
    }

    /** p50, p99, max and mean of one latency. */
    public record Summary(double p50, double p99, double max, double mean) {
    }

    /**
     * Two arms compared round by round: {@code a - b} per round (3 decimals), and whether every difference
     * has one sign and the two sets of values do not overlap.
     */
    public record Comparison(String a, String b, String metric, boolean stall, List<Integer> rounds,
                             List<Double> differencesMs, boolean toldApart) {
    }

    /** The sweep with stalls on and off; either is null when that state did not run. */
    public record Sweeps(Sweep stall, Sweep noStall) {
    }

    /**
     * A rate sweep against a latency bound.
     *
     * @param roundsWithin          per rate, in how many rounds it stayed within the bound
     * @param highestRatePerRound   per round, the highest rate within the bound (null elements: none)
     * @param highestRateEveryRound the highest rate within the bound in every round; written as null when none
     */
    public record Sweep(double boundMs, String metric, List<Double> rates, List<Integer> roundsWithin,
                        List<Double> highestRatePerRound,
                        @JsonInclude(JsonInclude.Include.ALWAYS) Double highestRateEveryRound, int rounds) {
    }

    /** The corrected p99 of consecutive windows of the arm's runs. */
    public record Windows(String arm, double windowS, List<WindowRun> runs) {
    }

    /** One run cut into windows: their p99s (3 decimals), the lowest, the highest and their ratio. */
    public record WindowRun(int round, boolean stall, List<Double> p99Ms, double minP99Ms, double maxP99Ms,
                            double spread) {
    }
}
