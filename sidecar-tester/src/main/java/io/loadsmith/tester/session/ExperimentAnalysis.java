package io.loadsmith.tester.session;

import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.PairedComparison;
import io.loadsmith.tester.experiment.RateSweep;
import io.loadsmith.tester.experiment.WindowAnalysis;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsDirs;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.WarningGroups;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The experiment's own results: per arm and round, the paired comparisons, the sweep and the windows. */
final class ExperimentAnalysis {

    private ExperimentAnalysis() {
    }

    /** The metric's value of one run, in milliseconds: p50/p99/max/mean of corrected latency, or of service with ":service". */
    static double value(RunResult r, String metric) {
        boolean service = metric.endsWith(":service");
        RunResult.Latency latency = service ? r.latencyMs().service() : r.latencyMs().corrected();
        return switch (metric.replace(":service", "")) {
            case "p50" -> latency.p50();
            case "max" -> latency.max();
            case "mean" -> latency.mean();
            default -> latency.p99();
        };
    }

    static Experiment experiment(ExperimentSpec spec, List<List<String>> orders,
                                 Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                                 Map<String, Map<Boolean, Map<Integer, StalledRun.Outcome>>> outcomes, Path out)
            throws IOException {
        List<Experiment.ArmRuns> perArm = new ArrayList<>();
        for (Map.Entry<String, Map<Boolean, Map<Integer, RunResult>>> arm : results.entrySet()) {
            for (Map.Entry<Boolean, Map<Integer, RunResult>> state : arm.getValue().entrySet()) {
                List<Experiment.Round> rounds = new ArrayList<>();
                for (Map.Entry<Integer, RunResult> run : state.getValue().entrySet()) {
                    StalledRun.Outcome outcome = outcomes.get(arm.getKey()).get(state.getKey()).get(run.getKey());
                    rounds.add(round(run.getKey(), run.getValue(), outcome));
                }
                perArm.add(new Experiment.ArmRuns(arm.getKey(), state.getKey(), rounds));
            }
        }
        List<Experiment.Comparison> pairs = new ArrayList<>();
        for (List<String> pair : spec.pairs()) {
            for (boolean stall : spec.stallStates()) {
                pairs.add(comparison(PairedComparison.of(pair.get(0), pair.get(1), spec.metric(), stall,
                        values(results, pair.get(0), stall, spec.metric()),
                        values(results, pair.get(1), stall, spec.metric()))));
            }
        }
        // each arm against itself, stall on against off: does this tester see the stalls at all?
        List<Experiment.Comparison> onOff = null;
        if (spec.stallStates().size() == 2) {
            onOff = new ArrayList<>();
            for (ExperimentSpec.Arm arm : spec.arms()) {
                onOff.add(comparison(PairedComparison.of(arm.name() + "/stall", arm.name() + "/no-stall", spec.metric(),
                        true, values(results, arm.name(), true, spec.metric()),
                        values(results, arm.name(), false, spec.metric()))));
            }
        }
        return new Experiment(spec.name(), spec.rounds(), spec.arms().stream().map(ExperimentSpec.Arm::name).toList(),
                spec.stallStates(), spec.metric(), spec.seed(), orders, perArm, pairs, onOff, sweeps(spec, results),
                windows(spec, outcomes, out));
    }

    private static Experiment.Round round(int round, RunResult r, StalledRun.Outcome outcome) {
        Integer met = null;
        Long sentDuring = null;
        Double perStall = null;
        Double share = null;
        if (outcome.alignment() != null) {
            var s = outcome.alignment().summary();
            met = s.stallsMet();
            sentDuring = s.sentDuringTotal();
            perStall = s.stallsMet() == 0 ? 0 : round(s.sentDuringTotal() / (double) s.stallsMet(), 3);
            share = round(s.overlappingShare(), 6);
        }
        RunResult.LatencyViews latency = r.latencyMs();
        return new Experiment.Round(round, r.seed(), summary(latency.corrected()), summary(latency.service()),
                latency.estimated() == null ? null : summary(latency.estimated()), r.aboveObjective(), r.counts().sent(),
                r.achievedRate(), met, sentDuring, perStall, share);
    }

    private static Experiment.Sweeps sweeps(ExperimentSpec spec, Map<String, Map<Boolean, Map<Integer, RunResult>>> results) {
        if (spec.sweep() == null) {
            return null;
        }
        Experiment.Sweep on = null;
        Experiment.Sweep off = null;
        for (boolean stall : spec.stallStates()) {
            Map<Double, Map<Integer, Double>> byRate = new TreeMap<>();
            for (String armName : spec.sweep().arms()) {
                double rate = spec.arms().stream().filter(a -> a.name().equals(armName)).findFirst().orElseThrow()
                        .ratePerSecond();
                byRate.put(rate, values(results, armName, stall, spec.sweep().metric()));
            }
            RateSweep sweep = RateSweep.of(spec.sweep().boundMs(), spec.sweep().metric(), byRate, rounds(spec.rounds()));
            Experiment.Sweep entry = new Experiment.Sweep(sweep.boundMs(), sweep.metric(), sweep.rates(),
                    sweep.roundsWithin(), sweep.highestPerRound(), sweep.highestEveryRound(), sweep.rounds());
            if (stall) {
                on = entry;
            } else {
                off = entry;
            }
        }
        return new Experiment.Sweeps(on, off);
    }

    private static Experiment.Windows windows(ExperimentSpec spec,
                                              Map<String, Map<Boolean, Map<Integer, StalledRun.Outcome>>> outcomes,
                                              Path out) throws IOException {
        if (spec.windows() == null) {
            return null;
        }
        List<Experiment.WindowRun> runs = new ArrayList<>();
        for (Map.Entry<Boolean, Map<Integer, StalledRun.Outcome>> state : outcomes.get(spec.windows().arm()).entrySet()) {
            for (Map.Entry<Integer, StalledRun.Outcome> run : state.getValue().entrySet()) {
                String log = run.getValue().result().requestsLog();
                Path dir = out.resolve("runs").resolve(String.format(Locale.ROOT, "r%d-%s-%s", run.getKey(),
                        ResultsDirs.fileSafe(spec.windows().arm()), state.getKey() ? "stall" : "nostall"));
                WindowAnalysis analysis = WindowAnalysis.of(dir.resolve(log == null ? RequestLog.FILE_NAME : log),
                        spec.windows().windowNanos());
                runs.add(new Experiment.WindowRun(run.getKey(), state.getKey(),
                        analysis.windows().stream().map(window -> round(window.p99Ms(), 3)).toList(),
                        round(analysis.minP99Ms(), 3), round(analysis.maxP99Ms(), 3), round(analysis.spread(), 3)));
            }
        }
        return new Experiment.Windows(spec.windows().arm(), spec.windows().windowNanos() / 1e9, runs);
    }

    private static Experiment.Comparison comparison(PairedComparison c) {
        return new Experiment.Comparison(c.a(), c.b(), c.metric(), c.stall(), c.rounds(),
                c.differencesMs().stream().map(d -> round(d, 3)).toList(), c.toldApart());
    }

    private static List<Integer> rounds(int count) {
        List<Integer> rounds = new ArrayList<>();
        for (int r = 1; r <= count; r++) {
            rounds.add(r);
        }
        return rounds;
    }

    private static Map<Integer, Double> values(Map<String, Map<Boolean, Map<Integer, RunResult>>> results, String arm,
                                               boolean stall, String metric) {
        Map<Integer, Double> values = new LinkedHashMap<>();
        Map<Integer, RunResult> runs = results.getOrDefault(arm, Map.of()).getOrDefault(stall, Map.of());
        runs.forEach((round, r) -> values.put(round, value(r, metric)));
        return values;
    }

    private static Experiment.Summary summary(RunResult.Latency latency) {
        return new Experiment.Summary(latency.p50(), latency.p99(), latency.max(), latency.mean());
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    /** The per-arm medians over rounds and the pairs' verdicts, for the console. */
    static void print(PrintWriter out, ExperimentSpec spec, Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                      Map<String, Map<Boolean, Map<Integer, StalledRun.Outcome>>> outcomes, Experiment experiment) {
        out.println();
        out.printf(Locale.ROOT, "%-16s %-5s %10s %10s %10s %10s %12s%n", "arm", "stall", "p50 ms", "p99 ms", "p99 svc",
                "max ms", "sends/stall");
        out.println("(medians over " + spec.rounds() + " rounds; p50/p99/max of corrected latency)");
        for (var arm : results.entrySet()) {
            for (var state : arm.getValue().entrySet()) {
                List<RunResult> runs = new ArrayList<>(state.getValue().values());
                List<StalledRun.Outcome> outs = new ArrayList<>(outcomes.get(arm.getKey()).get(state.getKey()).values());
                double perStall = median(outs.stream().filter(o -> o.alignment() != null && o.alignment().summary().stallsMet() > 0)
                        .mapToDouble(o -> o.alignment().summary().sentDuringTotal() / (double) o.alignment().summary().stallsMet())
                        .toArray());
                out.printf(Locale.ROOT, "%-16s %-5s %10s %10s %10s %10s %12s%n", arm.getKey(), state.getKey() ? "on" : "off",
                        Demo.fmt(median(runs.stream().mapToDouble(r -> r.latencyMs().corrected().p50()).toArray()), 2),
                        Demo.fmt(median(runs.stream().mapToDouble(r -> r.latencyMs().corrected().p99()).toArray()), 2),
                        Demo.fmt(median(runs.stream().mapToDouble(r -> r.latencyMs().service().p99()).toArray()), 2),
                        Demo.fmt(median(runs.stream().mapToDouble(r -> r.latencyMs().corrected().max()).toArray()), 1),
                        state.getKey() ? Demo.fmt(perStall, 1) : "-");
            }
        }
        out.println();
        for (Experiment.Comparison pair : experiment.pairs()) {
            out.printf(Locale.ROOT, "%s vs %s (%s, stall %s): differences %s ms -> %s%n", pair.a(), pair.b(),
                    pair.metric(), pair.stall() ? "on" : "off", pair.differencesMs(),
                    pair.toldApart() ? "told apart" : "not told apart");
        }
        if (experiment.stallVsNoStall() != null) {
            for (Experiment.Comparison pair : experiment.stallVsNoStall()) {
                out.printf(Locale.ROOT, "%s vs %s: differences %s ms -> %s%n", pair.a(), pair.b(), pair.differencesMs(),
                        pair.toldApart() ? "told apart" : "not told apart");
            }
        }
        List<RunResult> runs = new ArrayList<>();
        for (int round = 1; round <= experiment.order().size(); round++) {
            for (String label : experiment.order().get(round - 1)) {
                String arm = label.substring(0, label.lastIndexOf('/'));
                RunResult r = results.getOrDefault(arm, Map.of()).getOrDefault(label.endsWith("/stall"), Map.of())
                        .get(round);
                if (r != null) {
                    runs.add(r);
                }
            }
        }
        printWarnings(out, runs, experiment.arms());
        out.flush();
    }

    /**
     * The runs' warnings, one line per distinct warning with the runs it applies to; the tester-side ones first,
     * marked with "!". Nothing when no run has a warning.
     */
    static void printWarnings(PrintWriter out, List<RunResult> runs, List<String> arms) {
        List<WarningGroups.Group> groups = WarningGroups.of(runs, arms);
        if (groups.isEmpty()) {
            return;
        }
        out.println();
        out.println("warnings (one line each, for the runs named; ! = about the tester or its box, not the service):");
        for (WarningGroups.Group g : groups) {
            out.println((g.testerSide() ? "! " : "  ") + g.appliesTo() + ": " + g.text());
        }
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
