package io.loadsmith.tester.session;

import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsFixtures;
import io.loadsmith.tester.result.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A planted lab: open-546's round 1 is a cold start (p99 ten times its other rounds, with stalls and without),
 * its tester sent late; paced-8 is steady. The analysis marks the two outliers with what explains them and
 * gives every verdict on both latencies, with and without the outlier's round.
 */
class ExperimentOutliersTest {

    private static final double[] OPEN_STALL = {1009, 62, 80, 71, 66};
    private static final double[] OPEN_NO_STALL = {950, 40, 42, 41, 43};
    private static final double[] PACED = {90, 95, 100, 92, 97};
    private static final Experiment.IdleResult QUIET = new Experiment.IdleResult(0.97, 0.95, 0.84, 2, 2.004, 0, 0, false);

    @TempDir
    Path out;

    private final Map<String, Map<Boolean, Map<Integer, RunResult>>> results = new LinkedHashMap<>();
    private final Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes = new LinkedHashMap<>();

    @Test
    void a_cold_first_run_is_an_outlier_with_its_clues_and_verdicts_are_given_without_it() throws IOException {
        List<List<String>> orders = new ArrayList<>();
        for (int round = 1; round <= 5; round++) {
            int i = round - 1;
            double late = round == 1 ? 2.6 : 0.3 + 0.05 * i;
            put("open-546", true, round, OPEN_STALL[i], 1.0 + 0.1 * i, late);
            put("open-546", false, round, OPEN_NO_STALL[i], 1.0 + 0.1 * i, 0.3);
            put("paced-8", true, round, PACED[i], 5.0 + 0.1 * i, 0.3);
            put("paced-8", false, round, PACED[i], 5.0 + 0.1 * i, 0.3);
            orders.add(List.of("open-546/stall", "open-546/no-stall", "paced-8/stall", "paced-8/no-stall"));
        }
        Map<String, Map<Boolean, Map<Integer, Experiment.IdleResult>>> idle =
                Map.of("open-546", Map.of(true, Map.of(1, QUIET)));

        ExperimentSpec spec = ExperimentSpec.parse(spec());
        Experiment e = ExperimentAnalysis.experiment(spec, orders, results, outcomes, idle, out);
        StringWriter console = new StringWriter();
        ExperimentAnalysis.print(new PrintWriter(console, true), spec, results, outcomes, e);

        assertThat(e.outliers()).containsExactly(
                new Experiment.Outlier("open-546", true, 1, "open-546 r1 stall", "corrected", "p99", 1009.0, 68.5, 62.0,
                        80.0, "ratio", 1, 2.6, new Experiment.Range(0.35, 0.5), 2.6, new Experiment.Range(0.35, 0.5),
                        new Experiment.Twin(false, 950.0, true), QUIET),
                new Experiment.Outlier("open-546", false, 1, "open-546 r1 no-stall", "corrected", "p99", 950.0, 41.5,
                        40.0, 43.0, "ratio", 2, 0.3, new Experiment.Range(0.3, 0.3), 0.3, new Experiment.Range(0.3, 0.3),
                        new Experiment.Twin(true, 1009.0, true), null));
        assertThat(e.outliers().get(0).explanation()).isEqualTo("the experiment's first run (a cold start); "
                + "send lateness p99 2.60 ms (other rounds 0.35\u20130.50 ms): the tester itself was late; "
                + "dispatch lateness p99 2.60 ms (other rounds 0.35\u20130.50 ms): the tester itself was late; "
                + "its no-stall twin: 950 ms, an outlier too: not the stalls; "
                + "the box was quiet before it (CPUs 97% idle, load average 0.84 on 2 cores)");
        assertThat(e.pairs()).containsExactly(
                new Experiment.Comparison("open-546", "paced-8", "p99", true, List.of(1, 2, 3, 4, 5),
                        List.of(919.0, -33.0, -20.0, -21.0, -31.0), false, new Experiment.WithoutOutliers(List.of(1),
                        List.of(2, 3, 4, 5), List.of(-33.0, -20.0, -21.0, -31.0), true)),
                new Experiment.Comparison("open-546", "paced-8", "p99:service", true, List.of(1, 2, 3, 4, 5),
                        List.of(-4.0, -4.0, -4.0, -4.0, -4.0), true, null),
                new Experiment.Comparison("open-546", "paced-8", "p99", false, List.of(1, 2, 3, 4, 5),
                        List.of(860.0, -55.0, -58.0, -51.0, -54.0), false, new Experiment.WithoutOutliers(List.of(1),
                        List.of(2, 3, 4, 5), List.of(-55.0, -58.0, -51.0, -54.0), true)),
                new Experiment.Comparison("open-546", "paced-8", "p99:service", false, List.of(1, 2, 3, 4, 5),
                        List.of(-4.0, -4.0, -4.0, -4.0, -4.0), true, null));
        assertThat(e.stallVsNoStall().get(0)).isEqualTo(new Experiment.Comparison("open-546/stall", "open-546/no-stall",
                "p99", true, List.of(1, 2, 3, 4, 5), List.of(59.0, 22.0, 38.0, 30.0, 23.0), false,
                new Experiment.WithoutOutliers(List.of(1), List.of(2, 3, 4, 5), List.of(22.0, 38.0, 30.0, 23.0), true)));
        assertThat(e.perArm().get(0).rounds().get(0).idleCheck()).isEqualTo(QUIET);
        assertThat(ExperimentAnalysis.verdict(e.pairs().get(0))).isEqualTo("differences [919.0, -33.0, -20.0, -21.0, -31.0] ms"
                + " -> not told apart; without round(s) [1] (outliers): told apart");
        assertThat(console.toString().lines()).contains(
                "open-546 vs paced-8 (p99, stall on): differences [919.0, -33.0, -20.0, -21.0, -31.0] ms -> not told apart;"
                        + " without round(s) [1] (outliers): told apart",
                "open-546 vs paced-8 (p99:service, stall on): differences [-4.0, -4.0, -4.0, -4.0, -4.0] ms -> told apart",
                "(p99 = corrected latency, from the intended send: what users saw; p99:service = from the actual send)",
                "outliers (far from their arm's other rounds):",
                "  open-546 r1 stall, p99 corrected: 1009.00 ms against 68.50 ms (median of the other rounds, 62.00-80.00): "
                        + e.outliers().get(0).explanation());
    }

    private void put(String arm, boolean stall, int round, double correctedP99, double serviceP99, double lateP99) {
        RunResult r = ResultsFixtures.run(arm + " r" + round + (stall ? " stall" : " no-stall"));
        RunResult run = r.with(c -> {
            c.round = round;
            c.stall = stall;
            c.latencyMs = new RunResult.LatencyViews(ResultsFixtures.latency(serviceP99, 10),
                    ResultsFixtures.latency(correctedP99, 10), null);
            c.sendLatenessMs = new RunResult.Lateness(0.1, lateP99, lateP99);
            c.dispatchLatenessMs = c.sendLatenessMs;
            c.spectrum = null;
            c.requestsLog = null;
            c.hlog = null;
        });
        results.computeIfAbsent(arm, k -> new LinkedHashMap<>()).computeIfAbsent(stall, k -> new TreeMap<>()).put(round, run);
        outcomes.computeIfAbsent(arm, k -> new LinkedHashMap<>()).computeIfAbsent(stall, k -> new TreeMap<>())
                .put(round, new StalledRun.StalledResult(run, ClockOffset.SAME_CLOCK, null, List.of(), null, List.of()));
    }

    private Path spec() throws IOException {
        Path scenario = ServiceProcess.findRoot(Path.of("")).resolve("examples/scenarios/score-fixed-rate.yaml");
        return Files.writeString(out.resolve("experiment.yaml"), String.join("\n",
                "name: lab", "scenario: " + scenario, "rounds: 5", "duration: 2s", "seed: 1", "stall: both",
                "stalls: {admin: 'http://127.0.0.1:1', mean_interval: 500ms, duration: 100ms, min_gap: 200ms}",
                "arms:", "  - {name: open-546, load: {model: open, rate: 546}}",
                "  - {name: paced-8, load: {model: paced, connections: 8, pace: 14.65ms}}",
                "pairs: [[open-546, paced-8]]", ""));
    }
}
