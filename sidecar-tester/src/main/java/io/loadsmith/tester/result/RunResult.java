package io.loadsmith.tester.result;

import java.util.List;

/**
 * One tester run in {@code results.json} (an element of {@code runs[]}). Latencies in milliseconds, times
 * on the tester's clock in nanoseconds; docs/results-json.md describes every field. Fields that do not
 * apply are null and left out of the JSON (e.g. {@code latency_ms.estimated} for an open run).
 */
public record RunResult(
        String name,
        Tester tester,
        int round,
        boolean stall,
        long seed,
        long startNs,
        long endNs,
        double durationMs,
        boolean interrupted,
        Counts counts,
        LatencyViews latencyMs,
        Estimate estimate,
        AboveObjective aboveObjective,
        Lateness sendLatenessMs,
        Lateness dispatchLatenessMs,
        Waits waits,
        double achievedRate,
        Cost cost,
        List<TimelinePoint> timeline,
        Spectrum spectrum,
        List<StepResult> steps,
        List<String> warnings,
        List<Object> stalls,
        String requestsLog,
        String hlog,
        Connections connections,
        TransportUsed transport) {

    public RunResult {
        timeline = timeline == null ? List.of() : List.copyOf(timeline);
        steps = steps == null ? List.of() : List.copyOf(steps);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        stalls = stalls == null ? List.of() : List.copyOf(stalls);
    }

    /** This run with its stall alignment ({@code stalls[]}, filled by the alignment step). */
    public RunResult withStalls(List<?> value) {
        return new RunResult(name, tester, round, stall, seed, startNs, endNs, durationMs, interrupted, counts,
                latencyMs, estimate, aboveObjective, sendLatenessMs, dispatchLatenessMs, waits, achievedRate, cost,
                timeline, spectrum, steps, warnings, List.copyOf(value), requestsLog, hlog, connections, transport);
    }

    /** This run with more warnings appended. */
    public RunResult withWarnings(List<String> more) {
        List<String> all = new java.util.ArrayList<>(warnings);
        all.addAll(more);
        return new RunResult(name, tester, round, stall, seed, startNs, endNs, durationMs, interrupted, counts,
                latencyMs, estimate, aboveObjective, sendLatenessMs, dispatchLatenessMs, waits, achievedRate, cost,
                timeline, spectrum, steps, all, stalls, requestsLog, hlog, connections, transport);
    }

    /** This run with its transport's connection counts (null: not counted, e.g. a simulation). */
    public RunResult withConnections(Connections value) {
        return new RunResult(name, tester, round, stall, seed, startNs, endNs, durationMs, interrupted, counts,
                latencyMs, estimate, aboveObjective, sendLatenessMs, dispatchLatenessMs, waits, achievedRate, cost,
                timeline, spectrum, steps, warnings, stalls, requestsLog, hlog, value, transport);
    }

    /** This run with the transport that ran it (null: none, a simulation). */
    public RunResult withTransport(TransportUsed value) {
        return new RunResult(name, tester, round, stall, seed, startNs, endNs, durationMs, interrupted, counts,
                latencyMs, estimate, aboveObjective, sendLatenessMs, dispatchLatenessMs, waits, achievedRate, cost,
                timeline, spectrum, steps, warnings, stalls, requestsLog, hlog, connections, value);
    }

    /** The load model and its settings; fields that do not apply to the model are null. */
    public record Tester(String model, String arrivals, Double rate, Double startRate, List<StageInfo> stages,
                         Integer connections, Double paceMs, String onLate, Integer maxConcurrency,
                         double durationMs, double graceMs, Long warmupRequests, Double warmupMs) {
    }

    /** One ramp stage: duration and target rate per second. */
    public record StageInfo(double durationMs, double target) {
    }

    /**
     * Request counts: scheduled = sent + dropped + skipped and sent = completed + errors (docs/results-json.md).
     * sent: ended with an answer or an error; completed: answered without an error; dropped: never answered
     * (cancelled after the grace); droppedAfterSend: the part of dropped that had reached the socket.
     */
    public record Counts(long scheduled, long sent, long completed, long errors, long dropped, long skipped,
                         long droppedAfterSend) {
    }

    /** p50 ... max and mean of one latency, in ms. */
    public record Latency(double p50, double p90, double p99, double p999, double max, double mean, long count) {
    }

    /** Service (end − actual send), corrected (end − intended send) and, closed/paced only, the estimate. */
    public record LatencyViews(Latency service, Latency corrected, Latency estimated) {
    }

    /** How {@code latency_ms.estimated} was made: HdrHistogram's expected-interval correction of service. */
    public record Estimate(double intervalMs, String intervalSource, String note) {
    }

    /** Requests strictly above the objective, for each latency. */
    public record AboveObjective(double thresholdMs, long service, long corrected) {
    }

    /** Percentiles of a lateness (actual send − intended, or − the moment the engine asked to send), ms. */
    public record Lateness(double p50, double p99, double max) {
    }

    /** Requests that waited for a concurrency slot (open) or for the previous answer (paced catch-up). */
    public record Waits(long count, double totalMs, double maxMs) {
    }

    /**
     * The transport's connections over the whole run (warm-up included): opened (reconnects included),
     * reconnects (opened again after a close), failed connects, and connect time p50 and max, ms.
     */
    public record Connections(long opened, long reconnects, long failedConnects, double connectP50Ms,
                              double connectMaxMs) {
    }

    /**
     * The HTTP client a real run used: {@code kind} ({@code netty}, {@code jetty}: {@code target.transport}) and
     * {@code http}, the HTTP version ({@code 1.1}, {@code 2}: {@code target.http}).
     */
    public record TransportUsed(String kind, String http) {
    }

    /** The tester's own CPU over the counted run (the whole process; for a simulation, the simulator too). */
    public record Cost(double cpuNsPerRequest, double cpuMsTotal) {
    }

    /** One second of intended time: requests intended in it and their latencies, ms. */
    public record TimelinePoint(long tS, long count, long errors, Pair service, Pair corrected) {
    }

    /** p50 and p99, ms. */
    public record Pair(double p50, double p99) {
    }

    /** HdrHistogram's percentile spectrum: [percentile, ms] points. */
    public record Spectrum(List<double[]> service, List<double[]> corrected) {
    }

    /** One journey step (by step id). */
    public record StepResult(int step, String name, StepCounts counts, LatencyViews latencyMs) {
    }

    /** A step's counts, with the same meanings as {@link Counts}: sent = completed + errors. */
    public record StepCounts(long sent, long completed, long errors, long dropped) {
    }
}
