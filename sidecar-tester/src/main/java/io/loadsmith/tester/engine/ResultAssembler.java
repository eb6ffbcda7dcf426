package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.Recording;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.record.SecondSummary;
import io.loadsmith.tester.record.StepStats;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.Outcome;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Builds the {@link RunResult} of a finished run; its latency views serve merged runs too. */
public final class ResultAssembler {

    private ResultAssembler() {
    }

    /** The result of a run of one lane. */
    static RunResult build(TesterSpec spec, Recording recorder, Phase phase, long endNanos, long cpuNanos,
                           Path runDir) throws IOException {
        return build(spec, recorder, List.of(phase), endNanos, cpuNanos, runDir);
    }

    /**
     * The result of a run from its recording and the counted phases of its lanes: the run is interrupted
     * when a lane was stopped by the user, and then lasted until the last lane's stop moment; waits add up.
     */
    static RunResult build(TesterSpec spec, Recording recorder, List<Phase> phases, long endNanos, long cpuNanos,
                           Path runDir) throws IOException {
        Phase phase = phases.get(0);
        StepStats total = recorder.total();
        long sent = total.sent();
        boolean interrupted = false;
        long stopNanos = Long.MIN_VALUE;
        long waitedCount = 0;
        long waitedTotalNanos = 0;
        long waitedMaxNanos = 0;
        for (Phase lane : phases) {
            interrupted |= lane.userStopped();
            stopNanos = Math.max(stopNanos, lane.userStopped() ? lane.endNanos() : Long.MIN_VALUE);
            waitedCount += lane.waitedCount;
            waitedTotalNanos += lane.waitedTotalNanos;
            waitedMaxNanos = Math.max(waitedMaxNanos, lane.waitedMaxNanos);
        }
        long durationNanos = interrupted ? stopNanos - phase.startNanos() : spec.durationNanos();
        List<String> warnings = new ArrayList<>();
        if (interrupted) {
            warnings.add(String.format(Locale.ROOT, "stopped early by the user after %.1f s of %.1f s;"
                    + " the counts and latencies cover what was scheduled before the stop",
                    durationNanos / 1e9, spec.durationNanos() / 1e9));
        }
        RunResult.Latency estimated = null;
        RunResult.Estimate estimate = null;
        if (spec.model() != TesterSpec.Model.OPEN) {
            Histogram estimatedHistogram = recorder.estimated();
            String intervalSource = spec.model() == TesterSpec.Model.PACED ? "pace" : "configured";
            long intervalMicros = recorder.expectedIntervalMicros();
            if (estimatedHistogram == null) {
                // closed loop without a configured interval: the measured mean interval of one connection
                intervalSource = "measured";
                intervalMicros = sent == 0 ? 0
                        : Histograms.micros(durationNanos * spec.connections() / sent);
                estimatedHistogram = estimateFromLog(runDir.resolve(RequestLog.FILE_NAME), intervalMicros);
            }
            estimated = latency(estimatedHistogram);
            estimate = new RunResult.Estimate(Histograms.millis(intervalMicros), intervalSource,
                    "an estimate: HdrHistogram's recordValueWithExpectedInterval applied to service latency "
                            + "with an expected interval of " + Histograms.millis(intervalMicros)
                            + " ms, not a measurement");
        }
        if (spec.model() == TesterSpec.Model.CLOSED) {
            warnings.add("closed loop: each connection waits for its answer before sending again, so it "
                    + "sends nothing while the service stalls and cannot observe coordinated omission; "
                    + "corrected latency equals service latency");
        }
        if (total.dropped() > 0) {
            warnings.add(total.dropped() + " requests were dropped (never answered): unfinished "
                    + Histograms.millis(spec.graceNanos() / 1000.0) + " ms after the run's end ("
                    + total.droppedAfterSend() + " of them had been sent)");
        }
        if (recorder.skipped() > 0) {
            warnings.add(recorder.skipped() + " paced iterations were skipped (on_late: skip): "
                    + "the previous answer came after their intended time");
        }
        if (waitedCount > 0) {
            warnings.add(waitedCount + " requests waited (at most "
                    + Histograms.millis(Histograms.micros(waitedMaxNanos)) + " ms) "
                    + (spec.model() == TesterSpec.Model.PACED ? "for the previous answer of their connection"
                    : "for a concurrency slot") + "; the wait is charged to corrected latency");
        }
        Histogram dispatch = recorder.dispatchLateness();
        long lateMicros = (RunListener.LATE_SEND_NANOS + spec.precisionNanos()) / 1_000; // lateness by design is not
        if (dispatch.getTotalCount() > 0 && dispatch.getValueAtPercentile(99) > lateMicros) {
            warnings.add("the tester itself sent late: p99 " + Histograms.millis(dispatch.getValueAtPercentile(99))
                    + " ms between the moment it meant to send and the actual send (more than 1 ms beyond the "
                    + "precision); corrected latency "
                    + "includes that delay, so the tester, not only the service, may be the bottleneck");
        }
        if (recorder.lateToInterval() > 0) {
            warnings.add(recorder.lateToInterval() + " requests were created more than a second after their "
                    + "intended second had been written; they are counted in a later second of the timeline "
                    + "and the interval log (the totals are exact)");
        }
        Map<String, Long> errorKinds = total.errorKinds().asMap();
        if (total.errors() > 0) {
            warnings.add(total.errors() + " requests ended in an error (" + kinds(errorKinds) + ")");
        }

        List<RunResult.StepResult> steps = new ArrayList<>();
        for (Map.Entry<Integer, StepStats> entry : recorder.steps().entrySet()) {
            StepStats s = entry.getValue();
            steps.add(new RunResult.StepResult(entry.getKey(), phase.stepName(entry.getKey()),
                    new RunResult.StepCounts(s.sent(), s.completed(), s.errors(), s.dropped()),
                    new RunResult.LatencyViews(latency(s.service()), latency(s.corrected()), null)));
        }
        List<RunResult.TimelinePoint> timeline = new ArrayList<>();
        for (SecondSummary s : recorder.timeline()) {
            timeline.add(new RunResult.TimelinePoint(s.tS(), s.count(), s.errors(),
                    new RunResult.Pair(s.serviceP50Ms(), s.serviceP99Ms()),
                    new RunResult.Pair(s.correctedP50Ms(), s.correctedP99Ms())));
        }
        // sends that went on after the run's end stretch the time the rate is counted over: a tester that fell
        // behind its schedule never reports the target as achieved
        long sendingNanos = Math.max(durationNanos, recorder.lastSentNanos() - recorder.startNanos());
        if (sendingNanos > durationNanos + Math.max(spec.precisionNanos(), RunListener.LATE_SEND_NANOS)
                + durationNanos / 100) {
            warnings.add(String.format(Locale.ROOT, "the last request went out %.3f s after the end of the %.1f s run:"
                    + " the tester fell behind its schedule; the achieved rate is sent per second until that send",
                    (sendingNanos - durationNanos) / 1e9, durationNanos / 1e9));
        }
        double seconds = sendingNanos / 1e9;
        RunResult.Builder run = RunResult.builder();
        run.name = spec.name();
        run.tester = tester(spec);
        run.seed = spec.seed();
        run.startNs = recorder.startNanos();
        run.endNs = endNanos;
        run.durationMs = durationNanos / 1e6;
        run.interrupted = interrupted;
        run.counts = new RunResult.Counts(recorder.scheduled(), sent, total.completed(), total.errors(),
                total.dropped(), recorder.skipped(), total.droppedAfterSend());
        run.errorsByKind = errorKinds.isEmpty() ? null : errorKinds;
        run.latencyMs = new RunResult.LatencyViews(latency(total.service()), latency(total.corrected()), estimated);
        run.estimate = estimate;
        run.aboveObjective = new RunResult.AboveObjective(spec.objectiveNanos() / 1e6,
                recorder.serviceAboveObjective(), recorder.correctedAboveObjective());
        run.sendLatenessMs = lateness(recorder.sendLateness());
        run.dispatchLatenessMs = lateness(dispatch);
        run.waits = new RunResult.Waits(waitedCount, waitedTotalNanos / 1e6, waitedMaxNanos / 1e6);
        run.achievedRate = seconds > 0 ? sent / seconds : 0;
        run.cost = cost(cpuNanos, sent, endNanos - recorder.startNanos());
        run.timeline = timeline;
        run.spectrum = new RunResult.Spectrum(spectrum(total.service()), spectrum(total.corrected()));
        run.steps = steps;
        run.warnings = warnings;
        run.requestsLog = RequestLog.FILE_NAME;
        run.hlog = RunRecorder.HLOG_FILE_NAME;
        return run.build();
    }

    /** Error counts as text, {@code NOT_FOUND 20, timeout 1}. */
    static String kinds(Map<String, Long> errorKinds) {
        StringBuilder text = new StringBuilder();
        errorKinds.forEach((kind, count) -> text.append(text.length() == 0 ? "" : ", ").append(kind).append(' ').append(count));
        return text.toString();
    }

    /** The tester's CPU per request sent, in all and per second of elapsed counted run (-1 when unknown). */
    static RunResult.Cost cost(long cpuNanos, long sent, long elapsedNanos) {
        if (cpuNanos < 0) {
            return new RunResult.Cost(-1, -1, -1.0);
        }
        return new RunResult.Cost(sent == 0 ? -1 : cpuNanos / (double) sent, cpuNanos / 1e6,
                elapsedNanos <= 0 ? -1.0 : cpuNanos / 1e6 / (elapsedNanos / 1e9)).withMemory(ProcessMemory.now());
    }

    /** recordValueWithExpectedInterval over the per-request log, streamed: exact values, flat memory. */
    static Histogram estimateFromLog(Path log, long intervalMicros) throws IOException {
        Histogram estimated = Histograms.create();
        try (RequestLog.Reader records = RequestLog.read(log)) {
            while (records.hasNext()) {
                var r = records.next();
                if (r.serviceNanos() >= 0 && r.outcome() != Outcome.CANCELLED) {
                    estimated.recordValueWithExpectedInterval(Histograms.micros(r.serviceNanos()), intervalMicros);
                }
            }
        }
        return estimated;
    }

    static RunResult.Tester tester(TesterSpec spec) {
        boolean open = spec.model() == TesterSpec.Model.OPEN;
        boolean paced = spec.model() == TesterSpec.Model.PACED;
        List<RunResult.StageInfo> stages = spec.stages().isEmpty() ? null : spec.stages().stream()
                .map(s -> new RunResult.StageInfo(s.durationNanos() / 1e6, s.targetPerSecond())).toList();
        return new RunResult.Tester(spec.model().wireName(),
                open ? spec.arrivals().wireName() : null,
                open ? spec.ratePerSecond() : null,
                open && stages != null ? spec.startRatePerSecond() : null,
                stages,
                open ? null : spec.connections(),
                paced ? spec.paceNanos() / 1e6 : null,
                paced ? spec.onLate().wireName() : null,
                open && spec.maxConcurrency() > 0 ? spec.maxConcurrency() : null,
                spec.durationNanos() / 1e6, spec.graceNanos() / 1e6,
                spec.warmupRequests() > 0 ? spec.warmupRequests() : null,
                spec.warmupNanos() > 0 ? spec.warmupNanos() / 1e6 : null,
                spec.precisionNanos() / 1e6);
    }

    /** A latency view of h (µs): percentiles, max and mean in ms, and the count. */
    public static RunResult.Latency latency(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new RunResult.Latency(0, 0, 0, 0, 0, 0, 0);
        }
        return new RunResult.Latency(ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9),
                Histograms.millis(h.getMaxValue()), Histograms.millis(h.getMean()), h.getTotalCount());
    }

    public static RunResult.Lateness lateness(Histogram h) {
        if (h.getTotalCount() == 0) {
            return new RunResult.Lateness(0, 0, 0);
        }
        return new RunResult.Lateness(ms(h, 50), ms(h, 99), Histograms.millis(h.getMaxValue()));
    }

    private static double ms(Histogram h, double percentile) {
        return Histograms.millis(h.getValueAtPercentile(percentile));
    }

    /** The percentile spectrum of h (µs): [percentile, ms] points, 5 ticks per half distance. */
    public static List<RunResult.Point> spectrum(Histogram h) {
        List<RunResult.Point> points = new ArrayList<>();
        if (h.getTotalCount() == 0) {
            return points;
        }
        for (HistogramIterationValue v : h.percentiles(5)) {
            points.add(new RunResult.Point(v.getPercentileLevelIteratedTo(),
                    Histograms.millis(h.highestEquivalentValue(v.getValueIteratedTo()))));
            if (v.getPercentileLevelIteratedTo() >= 100.0) {
                break;
            }
        }
        return points;
    }
}
