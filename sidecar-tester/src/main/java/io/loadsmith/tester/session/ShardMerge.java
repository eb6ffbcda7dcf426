package io.loadsmith.tester.session;

import io.loadsmith.tester.engine.ResultAssembler;
import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.record.LaneMerge;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsException;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Slo;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code loadsmith merge}: one results folder from the folders of the N shards of one load ({@code run --shard
 * I/N}), as if one tester had sent it all (docs/scale-out.md).
 *
 * <p>The shards' timelines are put on one: the shard that started first on the wall clock ({@code start.epoch_ms})
 * is the reference; a shard that started d ms later has its seconds moved by d/1000 rounded (0 for shards
 * started together with {@code --start-at}) and its request times moved onto the reference's monotonic
 * clock ({@code t - start_ns(shard) + start_ns(ref) + d·10⁶}), or, when every shard ran with stalls, through
 * the agent's clock ({@code t + offset_used(shard) - offset_used(ref)}), so that each send lies in the windows
 * its shard counted it in. Then {@value RequestLog#FILE_NAME} is merged
 * in the order requests ended, {@value RunRecorder#HLOG_FILE_NAME} second by second and tag by tag with
 * HdrHistogram's {@code add} ({@link LaneMerge}), the run's latencies are read from the added intervals,
 * counts are summed, per-stall counts summed per stall (each shard aligned its sends with the stalls through
 * its own clock offset; the agent's held count is the agent's, taken once), and the scenario's SLOs are
 * evaluated on the merged log. One thread, once.
 */
public final class ShardMerge {

    private ShardMerge() {
    }

    /**
     * What the merge made.
     *
     * @param results  the merged results.json as written
     * @param verdicts one per SLO of the scenario, in its order
     */
    public record MergedResult(ResultsFile results, List<Slo.Verdict> verdicts) {

        /** True when every SLO passed (or there is none). */
        public boolean passed() {
            return verdicts.stream().allMatch(Slo.Verdict::pass);
        }
    }

    /**
     * Whether every shard aligned its sends with the agent's stalls: the agent's clock then puts them on one
     * timeline to the offsets' precision (shard i's time t is t + offset_i on the agent's clock), so that the
     * merged sends fall in the same windows as each shard counted them; otherwise the wall-clock starts do,
     * to their millisecond.
     */
    private static boolean onAgentClock(List<Part> parts) {
        return parts.stream().allMatch(part -> part.run.clockOffsetUsedNs() != null);
    }

    /** The send lateness of the merged request log (each shard's figure is of its own sends only). */
    private static RunResult.Lateness sendLateness(Path requestLog) throws IOException {
        Histogram lateness = Histograms.create();
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            while (records.hasNext()) {
                var r = records.next();
                if (r.sentNanos() >= 0) {
                    lateness.recordValue(Histograms.micros(r.sentNanos() - r.intendedNanos()));
                }
            }
        }
        return ResultAssembler.lateness(lateness);
    }

    /** One shard's folder and what it says of itself. */
    private record Part(Path dir, ResultsFile file, RunResult run, int index) {
        long epochMs() {
            return file.start() == null ? 0 : file.start().epochMs();
        }
    }

    /**
     * Merges the shards' folders into out (created; it must not hold a results.json yet).
     *
     * @throws IllegalArgumentException naming the folders, when they are not the N shards of one load: another
     *                                  scenario, seed or N, a shard twice or missing, a folder not a shard
     */
    public static MergedResult merge(List<Path> dirs, Path out) throws IOException {
        List<Part> parts = read(dirs);
        check(parts);
        Files.createDirectories(out);
        Part ref = parts.get(0);
        for (Part part : parts) {
            ref = part.epochMs() < ref.epochMs() ? part : ref;
        }
        long[] shiftNanos = new long[parts.size()];
        long[] shiftSeconds = new long[parts.size()];
        long seconds = 0;
        List<String> warnings = new ArrayList<>();
        List<Path> folders = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            long laterMs = part.epochMs() - ref.epochMs();
            shiftNanos[i] = onAgentClock(parts) ? part.run.clockOffsetUsedNs() - ref.run.clockOffsetUsedNs()
                    : laterMs * 1_000_000L + ref.run.startNs() - part.run.startNs();
            shiftSeconds[i] = Math.round(laterMs / 1000.0);
            seconds = Math.max(seconds, part.run.timeline().size() + shiftSeconds[i]);
            folders.add(part.dir);
            if (laterMs % 1000 != 0) {
                warnings.add(String.format(Locale.ROOT, "shard %d started %d ms after shard %d, not a whole number"
                        + " of seconds: its intervals are added to the nearest second", part.index, laterMs, ref.index));
            }
        }
        LaneMerge.mergeRequestLogs(folders, shiftNanos, out.resolve(RequestLog.FILE_NAME), ref.run.startNs());
        Totals totals = new Totals(parts, shiftSeconds);
        LaneMerge.mergeIntervals(folders, shiftSeconds, seconds, out.resolve(RunRecorder.HLOG_FILE_NAME), totals::add);
        AtomicFiles.copy(ref.dir.resolve("scenario.yaml"), out.resolve("scenario.yaml"));
        Path stalls = ref.dir.resolve("agent-stalls.json");
        if (Files.isRegularFile(stalls)) {
            AtomicFiles.copy(stalls, out.resolve("agent-stalls.json"));
        }
        RunResult run = mergedRun(parts, ref, totals, shiftNanos, warnings,
                sendLateness(out.resolve(RequestLog.FILE_NAME)));
        List<Slo.Verdict> verdicts = slos(parts.get(0).file, out);
        List<ResultsFile.SloResult> sloResults = verdicts.stream()
                .map(v -> new ResultsFile.SloResult(v.expr(), v.valueMillis(), v.valuePercent(), v.pass())).toList();
        ResultsFile merged = ResultsFile.of(List.of(run)).withClock(ref.file.clock()).withSlos(sloResults)
                .withVersions(ref.file.versions()).withAlignment(alignment(parts))
                .withShard(new ResultsFile.Shard(null, parts.size(), null)).withStart(ref.file.start());
        ResultsWriter.write(out.resolve(ResultsWriter.FILE_NAME), merged);
        return new MergedResult(merged, verdicts);
    }

    private static List<Part> read(List<Path> dirs) {
        List<Part> parts = new ArrayList<>();
        for (Path dir : dirs) {
            Path file = dir.resolve(ResultsWriter.FILE_NAME);
            if (!Files.isRegularFile(file)) {
                throw new IllegalArgumentException(dir + ": no results.json here (give the folders the shards wrote)");
            }
            ResultsFile results;
            try {
                results = ResultsReader.read(file);
            } catch (ResultsException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            if (results.shard() == null || results.shard().index() == null) {
                throw new IllegalArgumentException(dir + ": not a shard's folder (no shard.index in its results.json:"
                        + " was it run with --shard I/N?)");
            }
            if (results.runs().size() != 1) {
                throw new IllegalArgumentException(dir + ": holds " + results.runs().size() + " runs, a shard holds one");
            }
            parts.add(new Part(dir, results, results.runs().get(0), results.shard().index()));
        }
        parts.sort((a, b) -> Integer.compare(a.index, b.index));
        return parts;
    }

    private static void check(List<Part> parts) throws IOException {
        Part first = parts.get(0);
        byte[] scenario = Files.readAllBytes(first.dir.resolve("scenario.yaml"));
        int count = first.file.shard().count();
        Part[] byIndex = new Part[count];
        for (Part part : parts) {
            if (!Arrays.equals(scenario, Files.readAllBytes(part.dir.resolve("scenario.yaml")))) {
                throw new IllegalArgumentException(first.dir + " and " + part.dir + " ran different scenarios "
                        + "(their scenario.yaml differ)");
            }
            if (part.run.seed() != first.run.seed()) {
                throw new IllegalArgumentException(first.dir + " and " + part.dir + " ran different seeds ("
                        + first.run.seed() + ", " + part.run.seed() + ")");
            }
            if (part.file.shard().count() != count) {
                throw new IllegalArgumentException(first.dir + " and " + part.dir + " split the load into different"
                        + " numbers of shards (" + count + ", " + part.file.shard().count() + ")");
            }
            if (byIndex[part.index] != null) {
                throw new IllegalArgumentException(byIndex[part.index].dir + " and " + part.dir + " are both shard "
                        + part.index + " of " + count);
            }
            byIndex[part.index] = part;
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (byIndex[i] == null) {
                missing.add(i);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("shard(s) " + missing + " of " + count + " missing: the folders given ("
                    + parts.stream().map(p -> p.dir.toString()).toList() + ") hold only " + parts.size());
        }
    }

    /** The merged intervals' sums over the whole run, and the merged timeline, filled second by second. */
    private static final class Totals {
        final List<Part> parts;
        final long[] shiftSeconds;
        final Map<String, Histogram> byTag = new LinkedHashMap<>();
        final List<RunResult.TimelinePoint> timeline = new ArrayList<>();

        Totals(List<Part> parts, long[] shiftSeconds) {
            this.parts = parts;
            this.shiftSeconds = shiftSeconds;
        }

        void add(long s, Map<String, Histogram> sums) {
            for (Map.Entry<String, Histogram> entry : sums.entrySet()) {
                byTag.computeIfAbsent(entry.getKey(), tag -> Histograms.create()).add(entry.getValue());
            }
            long count = 0;
            long errors = 0;
            for (int i = 0; i < parts.size(); i++) {
                long own = s - shiftSeconds[i];
                List<RunResult.TimelinePoint> points = parts.get(i).run.timeline();
                if (own >= 0 && own < points.size()) {
                    count += points.get((int) own).count();
                    errors += points.get((int) own).errors();
                }
            }
            Histogram service = sums.get("service");
            Histogram corrected = sums.get("corrected");
            timeline.add(new RunResult.TimelinePoint(s, count, errors, pair(service), pair(corrected)));
        }

        Histogram tag(String tag) {
            return byTag.getOrDefault(tag, Histograms.create());
        }

        private static RunResult.Pair pair(Histogram h) {
            return new RunResult.Pair(Histograms.millis(h.getValueAtPercentile(50)),
                    Histograms.millis(h.getValueAtPercentile(99)));
        }
    }

    private static RunResult mergedRun(List<Part> parts, Part ref, Totals totals, long[] shiftNanos,
                                       List<String> mergeWarnings,
                                       RunResult.Lateness sendLateness) {
        RunResult first = parts.get(0).run;
        RunResult.Builder merged = RunResult.builder();
        merged.name = first.name();
        merged.tester = first.tester();
        merged.round = first.round();
        merged.stall = first.stall();
        merged.seed = first.seed();
        merged.startNs = ref.run.startNs();
        merged.endNs = Long.MIN_VALUE;
        merged.durationMs = first.durationMs();
        merged.counts = new RunResult.Counts(0, 0, 0, 0, 0, 0, 0);
        merged.aboveObjective = first.aboveObjective() == null ? null
                : new RunResult.AboveObjective(first.aboveObjective().thresholdMs(), 0, 0);
        merged.sendLatenessMs = sendLateness;
        merged.dispatchLatenessMs = new RunResult.Lateness(0, 0, 0);
        merged.waits = new RunResult.Waits(0, 0, 0);
        merged.warnings = new ArrayList<>(mergeWarnings);
        double cpuMs = 0;
        Double cpuMsPerSecond = 0.0; // the shards' processes together; unknown when one shard's file lacks it
        Double rssMaxMb = null; // the largest shard process's peak
        for (int i = 0; i < parts.size(); i++) {
            RunResult run = parts.get(i).run;
            merged.counts = merged.counts.plus(run.counts());
            if (run.errorsByKind() != null) {
                merged.errorsByKind = merged.errorsByKind == null ? new LinkedHashMap<>() : merged.errorsByKind;
                run.errorsByKind().forEach((kind, count) -> merged.errorsByKind.merge(kind, count, Long::sum));
            }
            if (merged.aboveObjective != null && run.aboveObjective() != null) {
                merged.aboveObjective = merged.aboveObjective.plus(run.aboveObjective());
            }
            if (run.waits() != null) {
                merged.waits = merged.waits.plus(run.waits());
            }
            merged.achievedRate += run.achievedRate();
            cpuMs += run.cost() == null || run.cost().cpuMsTotal() < 0 ? 0 : run.cost().cpuMsTotal();
            if (run.cost() != null && run.cost().rssMaxMb() != null) {
                rssMaxMb = rssMaxMb == null ? run.cost().rssMaxMb() : Math.max(rssMaxMb, run.cost().rssMaxMb());
            }
            Double perSecond = run.cost() == null ? null : run.cost().cpuMsPerSecond();
            cpuMsPerSecond = cpuMsPerSecond == null || perSecond == null || perSecond < 0 ? null
                    : cpuMsPerSecond + perSecond;
            merged.endNs = Math.max(merged.endNs, run.endNs() + shiftNanos[i]);
            merged.interrupted |= run.interrupted();
            if (run.dispatchLatenessMs() != null) {
                merged.dispatchLatenessMs = merged.dispatchLatenessMs.worst(run.dispatchLatenessMs());
            }
            for (String warning : run.warnings()) {
                merged.warnings.add("shard " + parts.get(i).index + ": " + warning);
            }
        }
        long sent = merged.counts.sent();
        // memory per process: the largest shard's peak, no heap (each shard had its own)
        merged.cost = new RunResult.Cost(sent == 0 ? -1 : cpuMs * 1e6 / sent, cpuMs, cpuMsPerSecond, rssMaxMb, null,
                null, null);
        Histogram service = totals.tag("service");
        Histogram corrected = totals.tag("corrected");
        merged.latencyMs = new RunResult.LatencyViews(ResultAssembler.latency(service),
                ResultAssembler.latency(corrected), null);
        merged.timeline = totals.timeline;
        merged.spectrum = new RunResult.Spectrum(ResultAssembler.spectrum(service), ResultAssembler.spectrum(corrected));
        merged.steps = steps(parts, totals);
        merged.requestsLog = RequestLog.FILE_NAME;
        merged.hlog = RunRecorder.HLOG_FILE_NAME;
        merged.transport = first.transport();
        RunResult run = merged.build();
        return first.stallSummary() == null ? run
                : run.withAlignment("", first.arm() == null ? first.name() : first.arm(), stalls(parts, shiftNanos, ref.run));
    }

    /** Steps by id: counts summed; latencies from the merged step tags, or the run's when it has one step. */
    private static List<RunResult.StepResult> steps(List<Part> parts, Totals totals) {
        Map<Integer, RunResult.StepResult> byId = new TreeMap<>();
        for (Part part : parts) {
            for (RunResult.StepResult step : part.run.steps()) {
                RunResult.StepResult sum = byId.get(step.step());
                byId.put(step.step(), sum == null ? step : new RunResult.StepResult(step.step(), step.name(),
                        sum.counts().plus(step.counts()), null));
            }
        }
        List<RunResult.StepResult> steps = new ArrayList<>();
        for (RunResult.StepResult step : byId.values()) {
            boolean tagged = totals.byTag.containsKey("service." + step.name());
            Histogram service = byId.size() == 1 && !tagged ? totals.tag("service") : totals.tag("service." + step.name());
            Histogram corrected = byId.size() == 1 && !tagged ? totals.tag("corrected")
                    : totals.tag("corrected." + step.name());
            steps.add(new RunResult.StepResult(step.step(), step.name(), step.counts(), new RunResult.LatencyViews(
                    ResultAssembler.latency(service), ResultAssembler.latency(corrected), null)));
        }
        return steps;
    }

    /**
     * Per stall, the shards' counts summed (each shard aligned its own sends through its own clock offset),
     * the window's times moved onto the merged timeline, the agent's held count taken once.
     */
    private static RunResult.Aligned stalls(List<Part> parts, long[] shiftNanos, RunResult ref) {
        Map<Integer, RunResult.StallRow> byIndex = new TreeMap<>();
        long sent = 0;
        long overlapping = 0;
        long sentDuring = 0;
        int met = 0;
        Set<Integer> missing = new LinkedHashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            RunResult run = parts.get(i).run;
            for (RunResult.StallRow row : run.stalls()) {
                RunResult.StallRow sum = byIndex.get(row.index());
                byIndex.put(row.index(), sum == null ? row.shifted(shiftNanos[i]) : sum.plus(row));
            }
            if (run.stallSummary() != null) {
                sent += run.stallSummary().sent();
                overlapping += run.stallSummary().overlapping();
                sentDuring += run.stallSummary().sentDuringTotal();
                met = Math.max(met, run.stallSummary().stallsMet());
                missing.addAll(run.stallSummary().missing());
            }
        }
        double share = sent == 0 ? 0 : Math.round(overlapping * 1e6 / sent) / 1e6;
        RunResult.StallTotals summary = new RunResult.StallTotals(met, sentDuring, share, share > 0.01, sent,
                overlapping, List.copyOf(missing));
        return new RunResult.Aligned(List.copyOf(byIndex.values()), summary,
                ref.clockOffsetNs() == null ? 0 : ref.clockOffsetNs(),
                ref.clockUncertaintyNs() == null ? 0 : ref.clockUncertaintyNs(),
                ref.clockOffsetUsedNs() == null ? 0 : ref.clockOffsetUsedNs(), ref.runId());
    }

    /** The shards' stall-aligned series added bin by bin (when drawn on the same bins); null without stalls. */
    private static Alignment alignment(List<Part> parts) {
        Alignment first = parts.get(0).file.alignment();
        if (first == null || first.series().isEmpty()) {
            return null;
        }
        double[] bins = new double[first.series().get(0).sendsPerBin().size()];
        List<Alignment.Scatter> scatter = new ArrayList<>();
        int met = 0;
        for (Part part : parts) {
            Alignment a = part.file.alignment();
            if (a == null || a.series().size() != 1 || a.binMs() != first.binMs() || a.fromMs() != first.fromMs()
                    || a.series().get(0).sendsPerBin().size() != bins.length) {
                return null;
            }
            List<Double> own = a.series().get(0).sendsPerBin();
            for (int b = 0; b < bins.length; b++) {
                bins[b] += own.get(b);
            }
            met = Math.max(met, a.series().get(0).stallsMet());
            scatter.addAll(a.scatter());
        }
        List<Double> sums = Arrays.stream(bins).map(v -> Math.round(v * 1e4) / 1e4).boxed().toList();
        String run = first.series().get(0).run();
        return new Alignment(first.stallMs(), first.binMs(), first.fromMs(), first.toMs(),
                List.of(new Alignment.Series(run, met, sums)),
                scatter.isEmpty() ? List.of() : List.of(new Alignment.Scatter(run, scatter.stream()
                        .flatMap(s -> s.points().stream()).toList())));
    }

    /** The SLOs the shards were checked against (as run, overrides included), evaluated on the merged log. */
    private static List<Slo.Verdict> slos(ResultsFile shard, Path out) throws IOException {
        List<Slo.Verdict> verdicts = new ArrayList<>();
        if (!shard.slos().isEmpty()) {
            SloCheck measured = SloCheck.read(out.resolve(RequestLog.FILE_NAME));
            for (ResultsFile.SloResult slo : shard.slos()) {
                verdicts.add(Slo.parse(slo.expr()).evaluate(measured));
            }
        }
        return verdicts;
    }
}
