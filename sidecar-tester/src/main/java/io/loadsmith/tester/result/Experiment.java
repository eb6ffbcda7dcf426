package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Locale;

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
 * @param outliers       runs whose metric is far from their arm's other rounds (per latency kind); empty for none
 */
public record Experiment(String name, int rounds, List<String> arms, List<Boolean> stallStates, String metric,
                         @JsonProperty("seed_of_round_1") long seedOfRound1, List<List<String>> order,
                         List<ArmRuns> perArm, List<Comparison> pairs, List<Comparison> stallVsNoStall, Sweeps sweep,
                         Windows windows, List<Outlier> outliers) {

    public Experiment {
        arms = arms == null ? List.of() : List.copyOf(arms);
        stallStates = stallStates == null ? List.of() : List.copyOf(stallStates);
        order = order == null ? List.of() : List.copyOf(order);
        perArm = perArm == null ? List.of() : List.copyOf(perArm);
        pairs = pairs == null ? List.of() : List.copyOf(pairs);
        outliers = outliers == null ? List.of() : List.copyOf(outliers);
    }

    /** Whether a metric ({@code p99}, {@code p99:service}) is of service latency; else of corrected latency. */
    public static boolean isService(String metric) {
        return metric != null && metric.endsWith(":service");
    }

    /** The same metric of the other latency: {@code p99} gives {@code p99:service} and back. */
    public static String otherLatency(String metric) {
        return isService(metric) ? metric.substring(0, metric.length() - ":service".length()) : metric + ":service";
    }

    /** The outlier entry of a run on one latency ({@code corrected} or {@code service}), or null. */
    public Outlier outlier(String run, String latency) {
        return outliers.stream().filter(o -> o.run().equals(run) && o.latency().equals(latency)).findFirst().orElse(null);
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
                        Long sentDuringStalls, Double sendsPerStall, Double overlappingShare, IdleResult idleCheck) {
    }

    /**
     * What the check before a run saw when it stopped waiting (the CPUs' idle share over its last 2 s, the
     * 1-minute load average, what the previous run left running) and whether the box was still busy then.
     *
     * @param idleShare             0 to 1; -1 when it cannot be read (not Linux)
     * @param wantedIdleShare       {@code service.idle}
     * @param loadAverage           the 1-minute load average; -1 when it cannot be read
     * @param cores                 the CPUs this JVM may use; the load average should be at most this
     * @param waitedS               how long the check waited, seconds (3 decimals)
     * @param leftoverProcesses     processes of the previous run's service still alive
     * @param leftoverTesterThreads threads of the previous run's transport still alive
     * @param busy                  whether any of those was still above its bound when the check gave up
     */
    public record IdleResult(double idleShare, double wantedIdleShare, double loadAverage, int cores, double waitedS,
                            int leftoverProcesses, int leftoverTesterThreads, boolean busy) {

        /** The warning of a run that started on a busy box, or null when the box was quiet. */
        public String warning() {
            if (!busy) {
                return null;
            }
            List<String> what = new java.util.ArrayList<>();
            if (idleShare >= 0 && idleShare < wantedIdleShare) {
                what.add(String.format(Locale.ROOT, "CPUs %.1f%% idle (wanted %.1f%%)", 100 * idleShare, 100 * wantedIdleShare));
            }
            if (loadAverage > cores) {
                what.add(String.format(Locale.ROOT, "load average %.2f on %d cores", loadAverage, cores));
            }
            if (leftoverProcesses > 0) {
                what.add(leftoverProcesses + " process(es) of the previous run's service still running");
            }
            if (leftoverTesterThreads > 0) {
                what.add(leftoverTesterThreads + " thread(s) of the previous run's tester still running");
            }
            return String.format(Locale.ROOT, "started on a busy box after waiting %.1f s: %s; other work shared the "
                    + "cores with this run", waitedS, String.join(", ", what));
        }
    }

    /** p50, p99, max and mean of one latency. */
    public record Summary(double p50, double p99, double max, double mean) {
    }

    /**
     * Two arms compared round by round: {@code a - b} per round (3 decimals), and whether every difference
     * has one sign and the two sets of values do not overlap.
     */
    public record Comparison(String a, String b, String metric, boolean stall, List<Integer> rounds,
                             List<Double> differencesMs, boolean toldApart, WithoutOutliers withoutOutliers) {

        /** A comparison none of whose runs is an outlier. */
        public Comparison(String a, String b, String metric, boolean stall, List<Integer> rounds,
                          List<Double> differencesMs, boolean toldApart) {
            this(a, b, metric, stall, rounds, differencesMs, toldApart, null);
        }
    }

    /**
     * A comparison again with the rounds left out in which either side's run is an outlier on its metric.
     *
     * @param leftOut the rounds left out
     */
    public record WithoutOutliers(List<Integer> leftOut, List<Integer> rounds, List<Double> differencesMs,
                                  boolean toldApart) {
    }

    /**
     * A run whose metric is far from its arm's other rounds in the same stall state (docs/experiments.md,
     * "Outliers"), with what the run itself recorded that may explain it.
     *
     * @param latency        {@code corrected} or {@code service}
     * @param metric         the metric without its latency, e.g. {@code p99}
     * @param rule           which part of the rule it broke: {@code ratio} (more than 3 times the others'
     *                       median, or less than a third of it) or {@code range} (outside the others' range by
     *                       more than the range)
     * @param runNumber      its place in the experiment's order, from 1
     * @param sendLatenessP99Ms       its tester's send lateness p99 (null: not recorded), and the other rounds'
     *                                lowest and highest in {@code othersSendLatenessP99Ms}
     * @param dispatchLatenessP99Ms   the same for dispatch lateness
     * @param twin           the same arm and round with the stalls in the other state; null when it did not run
     * @param idleCheck      what the check before the run saw; null when there was none
     */
    public record Outlier(String arm, boolean stall, int round, String run, String latency, String metric,
                          double valueMs, double othersMedianMs, double othersMinMs, double othersMaxMs, String rule,
                          int runNumber, Double sendLatenessP99Ms, Range othersSendLatenessP99Ms,
                          Double dispatchLatenessP99Ms, Range othersDispatchLatenessP99Ms, Twin twin,
                          IdleResult idleCheck) {

        /** What the run recorded that may explain it, in a few clauses joined by "; ". */
        public String explanation() {
            List<String> clues = new java.util.ArrayList<>();
            clues.add(runNumber == 1 ? "the experiment's first run (a cold start)" : "run " + runNumber + " of the experiment");
            lateness(clues, "send", sendLatenessP99Ms, othersSendLatenessP99Ms);
            lateness(clues, "dispatch", dispatchLatenessP99Ms, othersDispatchLatenessP99Ms);
            if (twin != null) {
                clues.add(String.format(Locale.ROOT, "its %s twin: %s ms, %s", twin.stall() ? "stall" : "no-stall",
                        ms(twin.valueMs()), twin.outlier() ? "an outlier too: not the stalls" : "in line with its own rounds"));
            }
            if (idleCheck != null) {
                clues.add(idleCheck.busy() ? idleCheck.warning() : String.format(Locale.ROOT,
                        "the box was quiet before it (CPUs %.0f%% idle, load average %.2f on %d cores)",
                        100 * idleCheck.idleShare(), idleCheck.loadAverage(), idleCheck.cores()));
            }
            return String.join("; ", clues);
        }

        private static void lateness(List<String> clues, String kind, Double valueMs, Range others) {
            if (valueMs == null) {
                return;
            }
            String range = others == null ? "" : " (other rounds " + ms(others.min()) + "\u2013" + ms(others.max()) + " ms)";
            boolean late = others != null && valueMs > 2 * others.max() && valueMs > 1;
            clues.add(kind + " lateness p99 " + ms(valueMs) + " ms" + range + (late ? ": the tester itself was late" : ""));
        }

        private static String ms(double value) {
            return value >= 100 ? String.format(Locale.ROOT, "%.0f", value)
                    : value >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
        }
    }

    /** The lowest and the highest of some values, ms. */
    public record Range(double min, double max) {
    }

    /** The same arm and round in the other stall state: its value of the metric, and whether it is an outlier too. */
    public record Twin(boolean stall, double valueMs, boolean outlier) {
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
