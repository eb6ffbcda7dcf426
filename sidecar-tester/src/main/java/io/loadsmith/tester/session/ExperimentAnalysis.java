package io.loadsmith.tester.session;

import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.Outliers;
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
                                 Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes, Path out)
            throws IOException {
        return experiment(spec, orders, results, outcomes, Map.of(), out);
    }

    /**
     * The experiment's results.
     *
     * @param idleChecks what the check before each run saw, by arm, stall state and round (absent: no check)
     */
    static Experiment experiment(ExperimentSpec spec, List<List<String>> orders,
                                 Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                                 Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes,
                                 Map<String, Map<Boolean, Map<Integer, Experiment.IdleResult>>> idleChecks, Path out)
            throws IOException {
        List<Experiment.ArmRuns> perArm = new ArrayList<>();
        for (Map.Entry<String, Map<Boolean, Map<Integer, RunResult>>> arm : results.entrySet()) {
            for (Map.Entry<Boolean, Map<Integer, RunResult>> state : arm.getValue().entrySet()) {
                List<Experiment.Round> rounds = new ArrayList<>();
                for (Map.Entry<Integer, RunResult> run : state.getValue().entrySet()) {
                    StalledRun.StalledResult outcome = outcomes.get(arm.getKey()).get(state.getKey()).get(run.getKey());
                    rounds.add(round(run.getKey(), run.getValue(), outcome,
                            idleCheck(idleChecks, arm.getKey(), state.getKey(), run.getKey())));
                }
                perArm.add(new Experiment.ArmRuns(arm.getKey(), state.getKey(), rounds));
            }
        }
        List<String> metrics = List.of(spec.metric(), Experiment.otherLatency(spec.metric()));
        List<Experiment.Outlier> outliers = outliers(spec, orders, results, idleChecks, metrics);
        List<Experiment.Comparison> pairs = new ArrayList<>();
        for (List<String> pair : spec.pairs()) {
            for (boolean stall : spec.stallStates()) {
                for (String metric : metrics) {
                    pairs.add(compare(pair.get(0), pair.get(1), metric, stall, results, outliers,
                            new ArmSide(pair.get(0), stall), new ArmSide(pair.get(1), stall)));
                }
            }
        }
        // each arm against itself, stall on against off: does this tester see the stalls at all?
        List<Experiment.Comparison> onOff = null;
        if (spec.stallStates().size() == 2) {
            onOff = new ArrayList<>();
            for (ExperimentSpec.ArmSpec arm : spec.arms()) {
                for (String metric : metrics) {
                    onOff.add(compare(arm.name() + "/stall", arm.name() + "/no-stall", metric, true, results, outliers,
                            new ArmSide(arm.name(), true), new ArmSide(arm.name(), false)));
                }
            }
        }
        return new Experiment(spec.name(), spec.rounds(), spec.arms().stream().map(ExperimentSpec.ArmSpec::name).toList(),
                spec.stallStates(), spec.metric(), spec.seed(), orders, perArm, pairs, onOff, sweeps(spec, results),
                windows(spec, outcomes, out), outliers);
    }

    /** One side of a comparison: an arm in one stall state. */
    private record ArmSide(String arm, boolean stall) {
    }

    /** A paired comparison, and again without the rounds in which either side's run is an outlier on the metric. */
    private static Experiment.Comparison compare(String a, String b, String metric, boolean stall,
                                                 Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                                                 List<Experiment.Outlier> outliers, ArmSide left, ArmSide right) {
        Map<Integer, Double> valuesA = values(results, left.arm(), left.stall(), metric);
        Map<Integer, Double> valuesB = values(results, right.arm(), right.stall(), metric);
        PairedComparison all = PairedComparison.of(a, b, metric, stall, valuesA, valuesB);
        String latency = Experiment.isService(metric) ? "service" : "corrected";
        java.util.SortedSet<Integer> leftOut = new java.util.TreeSet<>();
        for (Experiment.Outlier o : outliers) {
            boolean onEitherSide = o.arm().equals(left.arm()) && o.stall() == left.stall()
                    || o.arm().equals(right.arm()) && o.stall() == right.stall();
            if (onEitherSide && o.latency().equals(latency) && all.rounds().contains(o.round())) {
                leftOut.add(o.round());
            }
        }
        Experiment.WithoutOutliers without = null;
        if (!leftOut.isEmpty()) {
            Map<Integer, Double> keptA = new LinkedHashMap<>(valuesA);
            keptA.keySet().removeAll(leftOut);
            PairedComparison kept = PairedComparison.of(a, b, metric, stall, keptA, valuesB);
            without = new Experiment.WithoutOutliers(List.copyOf(leftOut), kept.rounds(), rounded(kept.differencesMs()),
                    kept.toldApart());
        }
        return new Experiment.Comparison(a, b, metric, stall, all.rounds(), rounded(all.differencesMs()), all.toldApart(),
                without);
    }

    /** Every run whose metric (on each latency) is far from its arm's other rounds, with what may explain it. */
    private static List<Experiment.Outlier> outliers(ExperimentSpec spec, List<List<String>> orders,
                                                     Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                                                     Map<String, Map<Boolean, Map<Integer, Experiment.IdleResult>>> idleChecks,
                                                     List<String> metrics) {
        Map<String, List<Outliers.Finding>> found = new LinkedHashMap<>();
        for (String metric : metrics) {
            for (var arm : results.entrySet()) {
                for (boolean stall : arm.getValue().keySet()) {
                    found.put(arm.getKey() + "|" + stall + "|" + metric,
                            Outliers.of(values(results, arm.getKey(), stall, metric)));
                }
            }
        }
        List<Experiment.Outlier> outliers = new ArrayList<>();
        for (String metric : metrics) {
            for (var arm : results.entrySet()) {
                for (var state : arm.getValue().entrySet()) {
                    boolean stall = state.getKey();
                    for (Outliers.Finding f : found.get(arm.getKey() + "|" + stall + "|" + metric)) {
                        RunResult run = state.getValue().get(f.round());
                        Map<Integer, RunResult> others = new TreeMap<>(state.getValue());
                        others.remove(f.round());
                        RunResult twin = arm.getValue().getOrDefault(!stall, Map.of()).get(f.round());
                        List<Outliers.Finding> twinFindings = found.getOrDefault(arm.getKey() + "|" + !stall + "|" + metric, List.of());
                        outliers.add(new Experiment.Outlier(arm.getKey(), stall, f.round(), run.name(),
                                Experiment.isService(metric) ? "service" : "corrected", metric.replace(":service", ""),
                                round(f.valueMs(), 3), round(f.othersMedianMs(), 3), round(f.othersMinMs(), 3),
                                round(f.othersMaxMs(), 3), f.rule(), runNumber(orders, f.round(), arm.getKey(), stall),
                                run.sendLatenessMs() == null ? null : run.sendLatenessMs().p99(),
                                range(others.values().stream().map(RunResult::sendLatenessMs).toList()),
                                run.dispatchLatenessMs() == null ? null : run.dispatchLatenessMs().p99(),
                                range(others.values().stream().map(RunResult::dispatchLatenessMs).toList()),
                                twin == null ? null : new Experiment.Twin(!stall, round(value(twin, metric), 3),
                                        twinFindings.stream().anyMatch(t -> t.round() == f.round())),
                                idleCheck(idleChecks, arm.getKey(), stall, f.round())));
                    }
                }
            }
        }
        return outliers;
    }

    /** The p99s of some latenesses as their lowest and highest; null when none is recorded. */
    private static Experiment.Range range(List<RunResult.Lateness> latenesses) {
        double[] p99 = latenesses.stream().filter(java.util.Objects::nonNull).mapToDouble(RunResult.Lateness::p99).toArray();
        if (p99.length == 0) {
            return null;
        }
        return new Experiment.Range(java.util.Arrays.stream(p99).min().orElseThrow(), java.util.Arrays.stream(p99).max().orElseThrow());
    }

    /** A run's place in the experiment's order, from 1. */
    static int runNumber(List<List<String>> orders, int round, String arm, boolean stall) {
        int before = 0;
        for (int r = 1; r < round; r++) {
            before += orders.get(r - 1).size();
        }
        return before + orders.get(round - 1).indexOf(arm + (stall ? "/stall" : "/no-stall")) + 1;
    }

    private static Experiment.IdleResult idleCheck(Map<String, Map<Boolean, Map<Integer, Experiment.IdleResult>>> checks,
                                                  String arm, boolean stall, int round) {
        return checks.getOrDefault(arm, Map.of()).getOrDefault(stall, Map.of()).get(round);
    }

    private static List<Double> rounded(List<Double> values) {
        return values.stream().map(d -> round(d, 3)).toList();
    }

    private static Experiment.Round round(int round, RunResult r, StalledRun.StalledResult outcome, Experiment.IdleResult idleCheck) {
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
                r.achievedRate(), met, sentDuring, perStall, share, idleCheck);
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
                                              Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes,
                                              Path out) throws IOException {
        if (spec.windows() == null) {
            return null;
        }
        List<Experiment.WindowRun> runs = new ArrayList<>();
        for (Map.Entry<Boolean, Map<Integer, StalledRun.StalledResult>> state : outcomes.get(spec.windows().arm()).entrySet()) {
            for (Map.Entry<Integer, StalledRun.StalledResult> run : state.getValue().entrySet()) {
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
                      Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes, Experiment experiment) {
        out.println();
        out.printf(Locale.ROOT, "%-16s %-5s %10s %10s %10s %10s %12s%n", "arm", "stall", "p50 ms", "p99 ms", "p99 svc",
                "max ms", "sends/stall");
        out.println("(medians over " + spec.rounds() + " rounds; p50/p99/max of corrected latency)");
        for (var arm : results.entrySet()) {
            for (var state : arm.getValue().entrySet()) {
                List<RunResult> runs = new ArrayList<>(state.getValue().values());
                List<StalledRun.StalledResult> outs = new ArrayList<>(outcomes.get(arm.getKey()).get(state.getKey()).values());
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
            out.println(pair.a() + " vs " + pair.b() + " (" + pair.metric() + ", stall " + (pair.stall() ? "on" : "off")
                    + "): " + verdict(pair));
        }
        if (experiment.stallVsNoStall() != null) {
            for (Experiment.Comparison pair : experiment.stallVsNoStall()) {
                out.println(pair.a() + " vs " + pair.b() + " (" + pair.metric() + "): " + verdict(pair));
            }
        }
        out.println("(p99 = corrected latency, from the intended send: what users saw; p99:service = from the actual send)");
        ExperimentHalves.print(out, results);
        if (!experiment.outliers().isEmpty()) {
            out.println();
            out.println("outliers (far from their arm's other rounds):");
            for (Experiment.Outlier o : experiment.outliers()) {
                out.printf(Locale.ROOT, "  %s, %s %s: %s ms against %s ms (median of the other rounds, %s-%s): %s%n",
                        o.run(), o.metric(), o.latency(), Demo.fmt(o.valueMs(), 2), Demo.fmt(o.othersMedianMs(), 2),
                        Demo.fmt(o.othersMinMs(), 2), Demo.fmt(o.othersMaxMs(), 2), o.explanation());
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

    /** A comparison's differences and verdict, and the verdict without its outliers' rounds when that differs. */
    static String verdict(Experiment.Comparison c) {
        String line = "differences " + c.differencesMs() + " ms -> " + (c.toldApart() ? "told apart" : "not told apart");
        Experiment.WithoutOutliers w = c.withoutOutliers();
        if (w != null && w.toldApart() != c.toldApart()) {
            line += "; without round(s) " + w.leftOut() + " (outliers): " + (w.toldApart() ? "told apart" : "not told apart");
        }
        return line;
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
