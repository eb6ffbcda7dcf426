package io.loadsmith.tester.experiment;

import io.loadsmith.tester.result.ResultsDirs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.tester.align.StalledRun;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.RunResult;

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

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

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

    static ObjectNode experiment(ExperimentSpec spec, List<List<String>> orders,
                                 Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                                 Map<String, Map<Boolean, Map<Integer, StalledRun.Outcome>>> outcomes, Path out)
            throws IOException {
        ObjectNode node = JSON.objectNode();
        node.put("name", spec.name());
        node.put("rounds", spec.rounds());
        ArrayNode arms = node.putArray("arms");
        spec.arms().forEach(arm -> arms.add(arm.name()));
        ArrayNode states = node.putArray("stall_states");
        spec.stallStates().forEach(states::add);
        node.put("metric", spec.metric());
        node.put("seed_of_round_1", spec.seed());
        ArrayNode order = node.putArray("order");
        for (List<String> round : orders) {
            ArrayNode line = order.addArray();
            round.forEach(line::add);
        }
        ArrayNode perArm = node.putArray("per_arm");
        for (Map.Entry<String, Map<Boolean, Map<Integer, RunResult>>> arm : results.entrySet()) {
            for (Map.Entry<Boolean, Map<Integer, RunResult>> state : arm.getValue().entrySet()) {
                ObjectNode entry = perArm.addObject();
                entry.put("arm", arm.getKey());
                entry.put("stall", state.getKey());
                ArrayNode rounds = entry.putArray("rounds");
                for (Map.Entry<Integer, RunResult> run : state.getValue().entrySet()) {
                    RunResult r = run.getValue();
                    ObjectNode row = rounds.addObject();
                    row.put("round", run.getKey());
                    row.put("seed", r.seed());
                    latency(row.putObject("corrected"), r.latencyMs().corrected());
                    latency(row.putObject("service"), r.latencyMs().service());
                    if (r.latencyMs().estimated() != null) {
                        latency(row.putObject("estimated"), r.latencyMs().estimated());
                    }
                    ObjectNode above = row.putObject("above_objective");
                    above.put("threshold_ms", r.aboveObjective().thresholdMs());
                    above.put("service", r.aboveObjective().service());
                    above.put("corrected", r.aboveObjective().corrected());
                    row.put("sent", r.counts().sent());
                    row.put("achieved_rate", r.achievedRate());
                    StalledRun.Outcome outcome = outcomes.get(arm.getKey()).get(state.getKey()).get(run.getKey());
                    if (outcome.alignment() != null) {
                        var s = outcome.alignment().summary();
                        row.put("stalls_met", s.stallsMet());
                        row.put("sent_during_stalls", s.sentDuringTotal());
                        row.put("sends_per_stall", s.stallsMet() == 0 ? 0 : round(s.sentDuringTotal() / (double) s.stallsMet(), 3));
                        row.put("overlapping_share", round(s.overlappingShare(), 6));
                    }
                }
            }
        }
        ArrayNode pairs = node.putArray("pairs");
        for (List<String> pair : spec.pairs()) {
            for (boolean stall : spec.stallStates()) {
                PairedComparison c = PairedComparison.of(pair.get(0), pair.get(1), spec.metric(), stall,
                        values(results, pair.get(0), stall, spec.metric()), values(results, pair.get(1), stall, spec.metric()));
                pairs.add(pair(c));
            }
        }
        // each arm against itself, stall on against off: does this tester see the stalls at all?
        if (spec.stallStates().size() == 2) {
            ArrayNode onOff = node.putArray("stall_vs_no_stall");
            for (ExperimentSpec.Arm arm : spec.arms()) {
                PairedComparison c = PairedComparison.of(arm.name() + "/stall", arm.name() + "/no-stall", spec.metric(),
                        true, values(results, arm.name(), true, spec.metric()), values(results, arm.name(), false, spec.metric()));
                onOff.add(pair(c));
            }
        }
        if (spec.sweep() != null) {
            for (boolean stall : spec.stallStates()) {
                Map<Double, Map<Integer, Double>> byRate = new TreeMap<>();
                for (String armName : spec.sweep().arms()) {
                    double rate = spec.arms().stream().filter(a -> a.name().equals(armName)).findFirst().orElseThrow()
                            .ratePerSecond();
                    byRate.put(rate, values(results, armName, stall, spec.sweep().metric()));
                }
                RateSweep sweep = RateSweep.of(spec.sweep().boundMs(), spec.sweep().metric(), byRate,
                        rounds(spec.rounds()));
                ObjectNode s = node.has("sweep") ? (ObjectNode) node.get("sweep") : node.putObject("sweep");
                ObjectNode entry = s.putObject(stall ? "stall" : "no_stall");
                entry.put("bound_ms", sweep.boundMs());
                entry.put("metric", sweep.metric());
                ArrayNode rates = entry.putArray("rates");
                sweep.rates().forEach(rates::add);
                ArrayNode within = entry.putArray("rounds_within");
                sweep.roundsWithin().forEach(within::add);
                ArrayNode highest = entry.putArray("highest_rate_per_round");
                sweep.highestPerRound().forEach(h -> {
                    if (h == null) {
                        highest.addNull();
                    } else {
                        highest.add(h);
                    }
                });
                if (sweep.highestEveryRound() == null) {
                    entry.putNull("highest_rate_every_round");
                } else {
                    entry.put("highest_rate_every_round", sweep.highestEveryRound());
                }
                entry.put("rounds", sweep.rounds());
            }
        }
        if (spec.windows() != null) {
            ObjectNode w = node.putObject("windows");
            w.put("arm", spec.windows().arm());
            w.put("window_s", spec.windows().windowNanos() / 1e9);
            ArrayNode runs = w.putArray("runs");
            Map<Boolean, Map<Integer, StalledRun.Outcome>> byState = outcomes.get(spec.windows().arm());
            for (Map.Entry<Boolean, Map<Integer, StalledRun.Outcome>> state : byState.entrySet()) {
                for (Map.Entry<Integer, StalledRun.Outcome> run : state.getValue().entrySet()) {
                    String log = run.getValue().result().requestsLog();
                    Path dir = out.resolve("runs").resolve(String.format(Locale.ROOT, "r%d-%s-%s", run.getKey(),
                            ResultsDirs.fileSafe(spec.windows().arm()), state.getKey() ? "stall" : "nostall"));
                    WindowAnalysis analysis = WindowAnalysis.of(dir.resolve(log == null ? RequestLog.FILE_NAME : log),
                            spec.windows().windowNanos());
                    ObjectNode entry = runs.addObject();
                    entry.put("round", run.getKey());
                    entry.put("stall", state.getKey());
                    ArrayNode p99 = entry.putArray("p99_ms");
                    analysis.windows().forEach(window -> p99.add(round(window.p99Ms(), 3)));
                    entry.put("min_p99_ms", round(analysis.minP99Ms(), 3));
                    entry.put("max_p99_ms", round(analysis.maxP99Ms(), 3));
                    entry.put("spread", round(analysis.spread(), 3));
                }
            }
        }
        return node;
    }

    private static ObjectNode pair(PairedComparison c) {
        ObjectNode p = JSON.objectNode();
        p.put("a", c.a());
        p.put("b", c.b());
        p.put("metric", c.metric());
        p.put("stall", c.stall());
        ArrayNode rounds = p.putArray("rounds");
        c.rounds().forEach(rounds::add);
        ArrayNode differences = p.putArray("differences_ms");
        c.differencesMs().forEach(d -> differences.add(round(d, 3)));
        p.put("told_apart", c.toldApart());
        return p;
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

    private static void latency(ObjectNode node, RunResult.Latency latency) {
        node.put("p50", latency.p50());
        node.put("p99", latency.p99());
        node.put("max", latency.max());
        node.put("mean", latency.mean());
    }

    static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }

    /** The per-arm medians over rounds and the pairs' verdicts, for the console. */
    static void print(PrintWriter out, ExperimentSpec spec, Map<String, Map<Boolean, Map<Integer, RunResult>>> results,
                      Map<String, Map<Boolean, Map<Integer, StalledRun.Outcome>>> outcomes, ObjectNode experiment) {
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
        for (JsonNode pair : experiment.get("pairs")) {
            out.printf(Locale.ROOT, "%s vs %s (%s, stall %s): differences %s ms -> %s%n", pair.get("a").asText(),
                    pair.get("b").asText(), pair.get("metric").asText(), pair.get("stall").asBoolean() ? "on" : "off",
                    pair.get("differences_ms"), pair.get("told_apart").asBoolean() ? "told apart" : "not told apart");
        }
        if (experiment.has("stall_vs_no_stall")) {
            for (JsonNode pair : experiment.get("stall_vs_no_stall")) {
                out.printf(Locale.ROOT, "%s vs %s: differences %s ms -> %s%n", pair.get("a").asText(), pair.get("b").asText(),
                        pair.get("differences_ms"), pair.get("told_apart").asBoolean() ? "told apart" : "not told apart");
            }
        }
        out.flush();
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
