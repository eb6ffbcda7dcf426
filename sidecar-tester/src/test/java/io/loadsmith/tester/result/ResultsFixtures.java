package io.loadsmith.tester.result;

import java.util.List;

/** Results built by hand for tests: a minimal run, and a file with every part (stalls, alignment, experiment). */
public final class ResultsFixtures {

    private ResultsFixtures() {
    }

    /** p50 ... max of one latency: every percentile at {@code ms}, max twice that. */
    public static RunResult.Latency latency(double ms, long count) {
        return new RunResult.Latency(ms, ms, ms, ms, 2 * ms, ms, count);
    }

    /** A finished open run of 10 requests, 1 ms each, with nothing optional but what the engine always writes. */
    public static RunResult run(String name) {
        RunResult.Builder run = RunResult.builder();
        run.name = name;
        run.tester = new RunResult.Tester("open", "poisson", 10.0, null, null, null, null, null, null, 1000.0, 100.0,
                null, null, 0.05);
        run.round = 1;
        run.stall = true;
        run.seed = 7;
        run.startNs = 1_000;
        run.endNs = 1_001_000_000;
        run.durationMs = 1000.0;
        run.counts = new RunResult.Counts(10, 10, 10, 0, 0, 0, 0);
        run.latencyMs = new RunResult.LatencyViews(latency(1.0, 10), latency(1.5, 10), null);
        run.aboveObjective = new RunResult.AboveObjective(20.0, 0, 0);
        run.sendLatenessMs = new RunResult.Lateness(0.0, 0.1, 0.2);
        run.dispatchLatenessMs = new RunResult.Lateness(0.0, 0.0, 0.0);
        run.waits = new RunResult.Waits(0, 0.0, 0.0);
        run.achievedRate = 10.0;
        run.cost = new RunResult.Cost(1000.0, 0.01, 0.5);
        run.spectrum = new RunResult.Spectrum(List.of(), List.of());
        run.requestsLog = "requests.bin";
        run.hlog = "latency.hlog";
        return run.build();
    }

    /** A results file with every part filled: two runs (one paced with steps and stalls), SLOs, alignment, experiment. */
    public static ResultsFile rich() {
        RunResult.Builder built = RunResult.builder();
        built.name = "paced r1 stall";
        built.tester = new RunResult.Tester("paced", null, null, null, null, 2, 50.0, "catch_up", null, 3000.0, 1000.0,
                100L, null, 0.05);
        built.round = 1;
        built.stall = true;
        built.seed = 3;
        built.startNs = 10_000_000;
        built.endNs = 3_010_000_000L;
        built.durationMs = 3000.0;
        built.counts = new RunResult.Counts(121, 120, 119, 1, 1, 0, 1);
        built.latencyMs = new RunResult.LatencyViews(latency(10.007, 120), latency(20.015, 120), latency(15.0, 137));
        built.estimate = new RunResult.Estimate(50.0, "pace", "an estimate");
        built.aboveObjective = new RunResult.AboveObjective(20.0, 2, 33);
        built.sendLatenessMs = new RunResult.Lateness(0.0, 445.183, 460.031);
        built.dispatchLatenessMs = new RunResult.Lateness(0.0, 0.0, 0.0);
        built.waits = new RunResult.Waits(31, 7285.0, 460.0);
        built.achievedRate = 40.0;
        built.cost = new RunResult.Cost(250000.0, 30.0, 20.0);
        built.timeline = List.of(new RunResult.TimelinePoint(0, 40, 0, new RunResult.Pair(10.007, 10.007),
                new RunResult.Pair(10.007, 10.007)));
        built.spectrum = new RunResult.Spectrum(
                List.of(new RunResult.Point(0.0, 10.007), new RunResult.Point(100.0, 510.207)),
                List.of(new RunResult.Point(0.0, 10.007), new RunResult.Point(100.0, 510.207)));
        built.steps = List.of(new RunResult.StepResult(0, "get", new RunResult.StepCounts(120, 119, 1, 1),
                new RunResult.LatencyViews(latency(10.007, 120), latency(20.015, 120), null)));
        built.warnings = List.of("a warning");
        built.requestsLog = "requests.bin";
        built.hlog = "latency.hlog";
        RunResult paced = built.build()
                .withAlignment("runs/r1-paced-stall", "paced", new RunResult.Aligned(
                        List.of(new RunResult.StallRow(0, 1_010_000_000, 1_110_000_000, 3, 0, 5, 2, 7, true),
                                new RunResult.StallRow(1, 2_900_000_000L, 3_100_000_000L, 0, 0, 0, 1, 1, false, null,
                                        new RunResult.Replayed("gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)", 182.049792,
                                                1.950208, 1_890.0, 1.950208))),
                        new RunResult.StallTotals(1, 0, 0.058333, true, 120, 7, List.of(2)), 1500, 20000, 0, "run-1"))
                .withTesterPauses(List.of(new RunResult.TesterPause("safepoint", "ThreadDump", 1_500_000_000L, 1_500_200_000L),
                        new RunResult.TesterPause("loop", "loop", 1_500_100_000L, 1_503_000_000L)), 4);
        RunResult open = run("open r1 no-stall").withAlignment("runs/r1-open-nostall", "open", null);
        Alignment alignment = new Alignment(100.0, 5.0, -100.0, 200.0,
                List.of(new Alignment.Series("paced", 1, List.of(1.0, 0.0, 0.5))),
                List.of(new Alignment.Scatter("paced", List.of(new RunResult.Point(-10.0, 111.0)))));
        Experiment.Round round = new Experiment.Round(1, 3, new Experiment.Summary(10.0, 20.0, 30.0, 12.5),
                new Experiment.Summary(9.0, 19.0, 29.0, 11.5), null, new RunResult.AboveObjective(20.0, 2, 33), 120, 40.0,
                1, 0L, 0.0, 0.058333, new Experiment.IdleResult(0.97, 0.95, 0.42, 2, 2.004, 0, 0, false));
        Experiment experiment = new Experiment("shape", 1, List.of("paced", "open"), List.of(true, false), "p99", 3,
                List.of(List.of("paced/stall", "open/no-stall")),
                List.of(new Experiment.ArmRuns("paced", true, List.of(round))),
                List.of(new Experiment.Comparison("paced", "open", "p99", true, List.of(1), List.of(8.5), false,
                        new Experiment.WithoutOutliers(List.of(1), List.of(), List.of(), false))),
                List.of(new Experiment.Comparison("paced/stall", "paced/no-stall", "p99", true, List.of(1), List.of(1.0),
                        false)),
                new Experiment.Sweeps(new Experiment.Sweep(50.0, "p99", List.of(10.0, 40.0), List.of(1, 0),
                        java.util.Arrays.asList(10.0, null), null, 1), null),
                new Experiment.Windows("paced", 1.0, List.of(new Experiment.WindowRun(1, true, List.of(10.0, 20.0), 10.0,
                        20.0, 2.0))),
                List.of(new Experiment.Outlier("paced", true, 1, "paced r1 stall", "corrected", "p99", 20.0, 2.0, 1.5, 2.5,
                        "ratio", 1, 445.183, new Experiment.Range(0.1, 0.3), 0.0, null,
                        new Experiment.Twin(false, 2.1, false), new Experiment.IdleResult(0.97, 0.95, 0.42, 2, 2.004, 0, 0, false))));
        return ResultsFile.of(List.of(paced, open)).withClock(new ResultsFile.ClockInfo(1500, 20000))
                .withSlos(List.of(new ResultsFile.SloResult("p99 < 500ms", 20.015, null, true),
                        new ResultsFile.SloResult("errors < 0.1%", null, 0.8, false)))
                .withAlignment(alignment).withExperiment(experiment);
    }
}
