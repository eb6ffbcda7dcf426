package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * One tester run in {@code results.json} (an element of {@code runs[]}). Latencies in milliseconds, times
 * on the tester's clock in nanoseconds; docs/results-json.md describes every field. Fields that do not
 * apply are null and left out of the JSON (e.g. {@code latency_ms.estimated} for an open run). The last
 * seven fields are set by the stall alignment ({@link #withAlignment}) of a run written with others or with
 * stalls: its folder and line, and, with stalls, its stall summary, clock offset and run id.
 * {@code servicePauses} and {@code pauseSummary} are set by {@link #withServicePauses} for a run whose agent
 * observes pauses.
 * The two before the last are the tester's own pauses of a real run ({@link #withTesterPauses}); the last,
 * {@code replicas}, the agents of a run armed on several ({@link #withReplicas}); {@code agentActivity}, what
 * ran in the service during a run with an agent ({@link AgentActivity}). Built by name through
 * {@link #builder()} or {@link #with}; the canonical constructor is for reading the JSON.
 */
public record RunResult(
        @JsonProperty(required = true) String name,
        @JsonProperty(required = true) Tester tester,
        int round,
        boolean stall,
        long seed,
        long startNs,
        long endNs,
        double durationMs,
        boolean interrupted,
        @JsonProperty(required = true) Counts counts,
        Map<String, Long> errorsByKind,
        @JsonProperty(required = true) LatencyViews latencyMs,
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
        List<StallRow> stalls,
        String requestsLog,
        String hlog,
        String dir,
        String arm,
        StallTotals stallSummary,
        Long clockOffsetNs,
        Long clockUncertaintyNs,
        Long clockOffsetUsedNs,
        String runId,
        Connections connections,
        TransportUsed transport,
        AgentLost agentLost,
        List<PauseRow> servicePauses,
        PauseSummary pauseSummary,

        List<TesterPause> testerPauses,
        Long requestsMetTesterPause,
        List<ReplicaUsed> replicas,
        AgentActivity agentActivity) {

    public RunResult {
        timeline = timeline == null ? List.of() : List.copyOf(timeline);
        steps = steps == null ? List.of() : List.copyOf(steps);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        stalls = stalls == null ? List.of() : List.copyOf(stalls);
        servicePauses = servicePauses == null ? null : List.copyOf(servicePauses);
        errorsByKind = errorsByKind == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(errorsByKind));
    }

    /** A run field by field, every field unset: set those the run has, then {@link Builder#build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** This run with what {@code change} sets on a copy of its fields (the withers below are made of it). */
    public RunResult with(Consumer<Builder> change) {
        Builder copy = new Builder(this);
        change.accept(copy);
        return copy.build();
    }

    /**
     * A run field by field, by name (never by position): a new field is added here and in the record alone.
     * Lists left null are empty.
     */
    public static final class Builder {
        public String name;
        public Tester tester;
        public int round;
        public boolean stall;
        public long seed;
        public long startNs;
        public long endNs;
        public double durationMs;
        public boolean interrupted;
        public Counts counts;
        /** {@code counts.errors} by kind (docs/results-json.md); null when there was no error. */
        public Map<String, Long> errorsByKind;
        public LatencyViews latencyMs;
        public Estimate estimate;
        public AboveObjective aboveObjective;
        public Lateness sendLatenessMs;
        public Lateness dispatchLatenessMs;
        public Waits waits;
        public double achievedRate;
        public Cost cost;
        public List<TimelinePoint> timeline;
        public Spectrum spectrum;
        public List<StepResult> steps;
        public List<String> warnings;
        public List<StallRow> stalls;
        public String requestsLog;
        public String hlog;
        public String dir;
        public String arm;
        public StallTotals stallSummary;
        public Long clockOffsetNs;
        public Long clockUncertaintyNs;
        public Long clockOffsetUsedNs;
        public String runId;
        public Connections connections;
        public TransportUsed transport;
        public AgentLost agentLost;
        public List<PauseRow> servicePauses;
        public PauseSummary pauseSummary;
        public List<TesterPause> testerPauses;
        public Long requestsMetTesterPause;
        public List<ReplicaUsed> replicas;
        public AgentActivity agentActivity;

        private Builder() {
        }

        private Builder(RunResult r) {
            name = r.name;
            tester = r.tester;
            round = r.round;
            stall = r.stall;
            seed = r.seed;
            startNs = r.startNs;
            endNs = r.endNs;
            durationMs = r.durationMs;
            interrupted = r.interrupted;
            counts = r.counts;
            errorsByKind = r.errorsByKind;
            latencyMs = r.latencyMs;
            estimate = r.estimate;
            aboveObjective = r.aboveObjective;
            sendLatenessMs = r.sendLatenessMs;
            dispatchLatenessMs = r.dispatchLatenessMs;
            waits = r.waits;
            achievedRate = r.achievedRate;
            cost = r.cost;
            timeline = r.timeline;
            spectrum = r.spectrum;
            steps = r.steps;
            warnings = r.warnings;
            stalls = r.stalls;
            requestsLog = r.requestsLog;
            hlog = r.hlog;
            dir = r.dir;
            arm = r.arm;
            stallSummary = r.stallSummary;
            clockOffsetNs = r.clockOffsetNs;
            clockUncertaintyNs = r.clockUncertaintyNs;
            clockOffsetUsedNs = r.clockOffsetUsedNs;
            runId = r.runId;
            connections = r.connections;
            transport = r.transport;
            agentLost = r.agentLost;
            servicePauses = r.servicePauses;
            pauseSummary = r.pauseSummary;
            testerPauses = r.testerPauses;
            requestsMetTesterPause = r.requestsMetTesterPause;
            replicas = r.replicas;
            agentActivity = r.agentActivity;
        }

        /** The run these fields make. */
        public RunResult build() {
            return new RunResult(name, tester, round, stall, seed, startNs, endNs, durationMs, interrupted, counts,
                    errorsByKind, latencyMs, estimate, aboveObjective, sendLatenessMs, dispatchLatenessMs, waits, achievedRate,
                    cost, timeline, spectrum, steps, warnings, stalls, requestsLog, hlog, dir, arm, stallSummary,
                    clockOffsetNs, clockUncertaintyNs, clockOffsetUsedNs, runId, connections, transport, agentLost,
                    servicePauses, pauseSummary, testerPauses, requestsMetTesterPause, replicas, agentActivity);
        }
    }

    /**
     * This run as one of several in a results folder, with its stall alignment when it had stalls.
     *
     * @param folder    the run's folder relative to the results folder ("" when it is the results folder)
     * @param line      the line it is drawn on in the alignment plot (runs on one line are merged)
     * @param aligned   its stalls, summary, clock offset and run id; null for a run without stalls
     */
    public RunResult withAlignment(String folder, String line, Aligned aligned) {
        String prefix = folder.isEmpty() ? "" : folder + "/";
        return with(c -> {
            c.stalls = aligned == null ? List.of() : aligned.stalls();
            c.requestsLog = requestsLog == null ? null : prefix + requestsLog;
            c.hlog = hlog == null ? null : prefix + hlog;
            c.dir = folder;
            c.arm = line;
            c.stallSummary = aligned == null ? null : aligned.summary();
            c.clockOffsetNs = aligned == null ? null : aligned.clockOffsetNs();
            c.clockUncertaintyNs = aligned == null ? null : aligned.clockUncertaintyNs();
            c.clockOffsetUsedNs = aligned == null ? null : aligned.clockOffsetUsedNs();
            c.runId = aligned == null ? null : aligned.runId();
        });
    }

    /** This run with more warnings appended. */
    public RunResult withWarnings(List<String> more) {
        List<String> all = new ArrayList<>(warnings);
        all.addAll(more);
        return with(c -> c.warnings = all);
    }

    /** This run with its transport's connection counts (null: not counted, e.g. a simulation). */
    public RunResult withConnections(Connections value) {
        return with(c -> c.connections = value);
    }

    /** This run with the transport that ran it (null: none, a simulation). */
    public RunResult withTransport(TransportUsed value) {
        return with(c -> c.transport = value);
    }

    /** This run with the agent lost during it (null: the agent answered to the end). */
    public RunResult withAgentLost(AgentLost value) {
        return with(c -> c.agentLost = value);
    }

    /**
     * This run with the pauses the agent's observer saw during it ({@code service_pauses}) and their summary
     * ({@code pause_summary}); null for both: not observed.
     */
    public RunResult withServicePauses(List<PauseRow> rows, PauseSummary summary) {
        return with(c -> {
            c.servicePauses = rows;
            c.pauseSummary = summary;
        });
    }

    /**
     * The agent's admin API stopped answering during a run with stalls: the windows fetched before are kept
     * (in {@code stalls}); the planned stalls after them could not be confirmed.
     *
     * @param atMs              when the first of the unanswered fetches was sent, ms after the counted start
     * @param unconfirmedStalls indices of the planned stalls inside the counted span that were not fetched
     *                          and were due after the agent's last answer: they may or may not have happened
     * @param error             why the last fetch failed, as the admin client said it
     */
    public record AgentLost(double atMs, List<Integer> unconfirmedStalls, String error) {

        public AgentLost {
            unconfirmedStalls = List.copyOf(unconfirmedStalls);
        }
    }

    /** This run with the tester's own pauses and the requests that met one (real runs only). */
    public RunResult withTesterPauses(List<TesterPause> pauses, long metRequests) {
        return with(c -> {
            c.testerPauses = List.copyOf(pauses);
            c.requestsMetTesterPause = metRequests;
        });
    }

    /**
     * A pause of the tester itself during the counted run (docs/pauses.md, "The tester's own pauses").
     *
     * @param source  {@code safepoint} (its JVM's, from JFR), {@code loop} (its send loop came to a send more
     *                than 1 ms late) or {@code sleeper}
     * @param label   the safepoint's VM operation (and collector and cause), or {@code loop}
     * @param startNs when it started, tester clock (like a stall's {@code start_ns})
     * @param endNs   when it ended, tester clock
     */
    public record TesterPause(@JsonProperty(required = true) String source,
                              @JsonProperty(required = true) String label, long startNs, long endNs) {
    }

    /**
     * What the stall alignment adds to a run with stalls.
     *
     * @param clockOffsetNs      the agent's clock minus the tester's, as measured
     * @param clockUncertaintyNs half the best probe's round trip
     * @param clockOffsetUsedNs  the offset the windows were moved by (0 when the measured one is within its uncertainty)
     * @param runId              the agent's id of the armed run
     */
    public record Aligned(List<StallRow> stalls, StallTotals summary, long clockOffsetNs, long clockUncertaintyNs,
                          long clockOffsetUsedNs, String runId) {
    }

    /**
     * What one tester did around one stall (times on the tester's clock); every count is of requests of the
     * counted run. {@code met}: whether the whole window lies inside the counted span. {@code replica}: the
     * admin URL of the agent that recorded it, in a run on several agents (else null). {@code replayed}: the
     * profile's pause the window replays, in a replayed plan (else null).
     */
    public record StallRow(int index, long startNs, long endNs, long held, long sentDuring, long intendedDuring,
                           long inFlightAtStart, long overlapping, boolean met, String replica, Replayed replayed) {

        /** A stall of the run's one agent (no {@code replica}), of a seeded plan. */
        public StallRow(int index, long startNs, long endNs, long held, long sentDuring, long intendedDuring,
                        long inFlightAtStart, long overlapping, boolean met) {
            this(index, startNs, endNs, held, sentDuring, intendedDuring, inFlightAtStart, overlapping, met, null, null);
        }

        /** This row with its window moved by {@code nanos}. */
        public StallRow shifted(long nanos) {
            return new StallRow(index, startNs + nanos, endNs + nanos, held, sentDuring, intendedDuring,
                    inFlightAtStart, overlapping, met, replica, replayed);
        }

        /**
         * This window's counts and {@code other}'s (the same stall, met by another tester) added: its times,
         * the agent's held count once, met when both met it.
         */
        public StallRow plus(StallRow other) {
            return new StallRow(index, startNs, endNs, Math.max(held, other.held), sentDuring + other.sentDuring,
                    intendedDuring + other.intendedDuring, inFlightAtStart + other.inFlightAtStart,
                    overlapping + other.overlapping, met && other.met, replica, replayed);
        }
    }

    /**
     * The pause of a profile that a stall window replays ({@code stalls[].replayed}; docs/replaying-pauses.md).
     * A window that merged several pauses (they overlapped or touched once scaled) has the first one's offset,
     * its distinct sources joined with {@code +} and its distinct labels with {@code " + "}, and lasts from
     * the first one's start to the latest end. The last three are null in files written before they were.
     *
     * @param source            {@code gc}, {@code safepoint} or {@code host}, as in the profile
     * @param label             what it was, in the profile's words (e.g. {@code G1: Pause Young (Normal) (G1 Evacuation Pause)})
     * @param offsetMs          its offset in the profile, from the profile's start (not scaled, not moved by {@code from})
     * @param durationMs        how long it lasted in the profile (not scaled)
     * @param plannedOffsetMs   where the plan put the window: from the counted start in a run (from the arming for
     *                          {@code loadsmith arm}), moved by {@code from} and divided by {@code speed}
     * @param plannedDurationMs how long the plan made the window: its duration divided by {@code speed}
     */
    public record Replayed(String source, String label, double offsetMs, Double durationMs, Double plannedOffsetMs,
                           Double plannedDurationMs) {

        /** {@code gc+host: G1: Pause Full (System.gc()) + host}: its source and label (one alone when the other is not known). */
        public String what() {
            if (source != null && label != null) {
                return source + ": " + label;
            }
            return source != null ? source : label != null ? label : "?";
        }

        /** {@code 600.00 ms gc+host: G1: Pause Full (System.gc()) + host}: its offset in the profile and what it was. */
        public String text() {
            return String.format(Locale.ROOT, "%.2f ms %s", offsetMs, what());
        }
    }

    /** This run with the replicas its stalls came from (null: one agent). */
    public RunResult withReplicas(List<ReplicaUsed> value) {
        return with(c -> c.replicas = value);
    }

    /**
     * One replica's agent armed in a run with several ({@code runs[].replicas[]}).
     *
     * @param address            its admin URL (the {@code replica} of its stall rows)
     * @param replicaId          the id the agent gives itself ({@code replica=}); null when it does not say
     * @param runId              the agent's id of the armed run
     * @param clockOffsetNs      its clock minus the tester's, as measured
     * @param clockUncertaintyNs half the best probe's round trip
     * @param clockOffsetUsedNs  the offset its windows were moved by
     * @param stalls             its stalls recorded in the run
     * @param missing            its planned stalls inside the counted span that did not happen
     * @param servedBy           the number its id has in {@code requests.bin}'s served by (0: it gives no id)
     * @param requestsServed     requests of the counted run whose answer named it ({@code Loadsmith-Replica})
     * @param agentLost          its agent stopped answering during the run; null when it answered to the end
     */
    public record ReplicaUsed(@JsonProperty(required = true) String address, String replicaId,
                              @JsonProperty(required = true) String runId, long clockOffsetNs,
                              long clockUncertaintyNs, long clockOffsetUsedNs, int stalls, List<Integer> missing,
                              int servedBy, long requestsServed, AgentLost agentLost) {

        public ReplicaUsed {
            missing = missing == null ? List.of() : List.copyOf(missing);
        }
    }

    /**
     * A run's stalls in a few numbers: stalls met, requests sent inside them, the share (0 to 1, rounded to
     * 6 decimals) of sent requests whose lifetime overlapped one, whether that share exceeds 1 % (so a p99
     * can show stalls), the share's numerator and denominator, and the planned stalls that did not happen.
     */
    public record StallTotals(int stallsMet, long sentDuringTotal, double overlappingShare, boolean p99CanSeeStalls,
                               long sent, long overlapping, List<Integer> missing) {

        public StallTotals {
            missing = missing == null ? List.of() : List.copyOf(missing);
        }
    }

    /**
     * What one tester did around one pause the service's observer saw (times on the tester's clock), with
     * the counts of {@link StallRow}; {@code timeToSafepointNs} is null (and written as null) for a sleeper
     * window; {@code replica} is the admin URL of the agent that saw it in a run on several agents (null,
     * and left out, with one).
     */
    public record PauseRow(int index, String source, String label, long startNs, long endNs,
                           @JsonInclude(JsonInclude.Include.ALWAYS) Long timeToSafepointNs, long sentDuring,
                           long intendedDuring, long inFlightAtStart, long overlapping, boolean met, String replica) {

        /** A row of a run with one agent (no {@code replica}). */
        public PauseRow(int index, String source, String label, long startNs, long endNs, Long timeToSafepointNs,
                        long sentDuring, long intendedDuring, long inFlightAtStart, long overlapping, boolean met) {
            this(index, source, label, startNs, endNs, timeToSafepointNs, sentDuring, intendedDuring, inFlightAtStart,
                    overlapping, met, null);
        }
    }

    /**
     * A run's service pauses in a few numbers: those listed, those met (inside the counted span), requests
     * sent inside the pauses met (summed over them), requests whose lifetime overlapped one and their share
     * (0 to 1, rounded to 6 decimals) of the sent requests, and the time the pauses met cover (their union),
     * in ms.
     */
    public record PauseSummary(int pauses, int pausesMet, long sentDuringTotal, long overlapping,
                               double overlappingShare, double pausedMs) {
    }

    /**
     * The load model and its settings; fields that do not apply to the model are null. precisionMs: how late a
     * send may go after its intended time ({@code load.precision}; null in files written before it existed).
     */
    public record Tester(@JsonProperty(required = true) String model, String arrivals, Double rate, Double startRate,
                         List<StageInfo> stages, Integer connections, Double paceMs, String onLate, Integer maxConcurrency,
                         double durationMs, double graceMs, Long warmupRequests, Double warmupMs, Double precisionMs) {
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

        /** These counts and {@code other}'s added (the shards of one load). */
        public Counts plus(Counts other) {
            return new Counts(scheduled + other.scheduled, sent + other.sent, completed + other.completed,
                    errors + other.errors, dropped + other.dropped, skipped + other.skipped,
                    droppedAfterSend + other.droppedAfterSend);
        }
    }

    /** p50 ... max and mean of one latency, in ms. */
    public record Latency(double p50, double p90, double p99, double p999, double max, double mean, long count) {
    }

    /** Service (end − actual send), corrected (end − intended send) and, closed/paced only, the estimate. */
    public record LatencyViews(@JsonProperty(required = true) Latency service,
                               @JsonProperty(required = true) Latency corrected, Latency estimated) {
    }

    /** How {@code latency_ms.estimated} was made: HdrHistogram's expected-interval correction of service. */
    public record Estimate(double intervalMs, String intervalSource, String note) {
    }

    /** Requests strictly above the objective, for each latency. */
    public record AboveObjective(double thresholdMs, long service, long corrected) {

        /** These counts and {@code other}'s added, above this threshold. */
        public AboveObjective plus(AboveObjective other) {
            return new AboveObjective(thresholdMs, service + other.service, corrected + other.corrected);
        }
    }

    /** Percentiles of a lateness (actual send − intended, or − the moment the engine asked to send), ms. */
    public record Lateness(double p50, double p99, double max) {

        /** The larger of each figure of this and {@code other}: an upper bound of both together. */
        public Lateness worst(Lateness other) {
            return new Lateness(Math.max(p50, other.p50), Math.max(p99, other.p99), Math.max(max, other.max));
        }
    }

    /** Requests that waited for a concurrency slot (open) or for the previous answer (paced catch-up). */
    public record Waits(long count, double totalMs, double maxMs) {

        /** These waits and {@code other}'s together. */
        public Waits plus(Waits other) {
            return new Waits(count + other.count, totalMs + other.totalMs, Math.max(maxMs, other.maxMs));
        }
    }

    /**
     * The transport's connections over the whole run (warm-up included): opened (reconnects included),
     * reconnects (opened again after a close), failed connects, and connect time p50 and max, ms.
     */
    public record Connections(long opened, long reconnects, long failedConnects, double connectP50Ms,
                              double connectMaxMs) {
    }

    /**
     * The HTTP client a real run used: {@code kind} ({@code netty}, {@code jetty}: {@code target.transport}),
     * {@code http}, the HTTP version ({@code 1.1}, {@code 2}: {@code target.http}), and with more than one
     * event loop ({@code target.loops}) {@code loops} and {@code sentPerLoop}, the requests each loop handed to
     * a socket, warm-up included; both null with one loop, so a one-loop run's file is as it always was.
     */
    public record TransportUsed(String kind, String http, Integer loops, List<Long> sentPerLoop) {

        /** One loop. */
        public TransportUsed(String kind, String http) {
            this(kind, http, null, null);
        }
    }

    /**
     * The tester's own CPU over the counted run (the whole process; for a simulation, the simulator too): per
     * request sent, in all, and per second of the run (its fixed cost: what runs whatever the rate; null in files
     * written before it was reported).
     */
    /**
     * The tester's own cost over the counted run: its CPU, and its memory when the run's result was made.
     *
     * @param rssMaxMb           the process's peak resident memory so far (Linux VmHWM, MiB); null where the
     *                           system does not say, or in a file written before it was measured
     * @param heapUsedMb         the JVM's heap in use at the end of the run, MiB; null as above
     * @param heapCommittedMb    the heap the JVM had taken from the system then, MiB
     * @param nonHeapCommittedMb the non-heap (metaspace, code cache) it had taken then, MiB
     */
    public record Cost(double cpuNsPerRequest, double cpuMsTotal, Double cpuMsPerSecond, Double rssMaxMb,
                       Double heapUsedMb, Double heapCommittedMb, Double nonHeapCommittedMb) {

        /** CPU only: the memory unknown. */
        public Cost(double cpuNsPerRequest, double cpuMsTotal, Double cpuMsPerSecond) {
            this(cpuNsPerRequest, cpuMsTotal, cpuMsPerSecond, null, null, null, null);
        }

        /** This cost with the memory of {@code memory}. */
        public Cost withMemory(Cost memory) {
            return new Cost(cpuNsPerRequest, cpuMsTotal, cpuMsPerSecond, memory.rssMaxMb, memory.heapUsedMb,
                    memory.heapCommittedMb, memory.nonHeapCommittedMb);
        }
    }

    /** One second of intended time: requests intended in it and their latencies, ms. */
    public record TimelinePoint(long tS, long count, long errors, Pair service, Pair corrected) {
    }

    /** p50 and p99, ms. */
    public record Pair(double p50, double p99) {
    }

    /** HdrHistogram's percentile spectrum: [percentile, ms] points. */
    public record Spectrum(List<Point> service, List<Point> corrected) {

        public Spectrum {
            service = service == null ? List.of() : List.copyOf(service);
            corrected = corrected == null ? List.of() : List.copyOf(corrected);
        }
    }

    /** A point of a plot, written as the pair {@code [x, y]}. */
    @JsonFormat(shape = JsonFormat.Shape.ARRAY)
    public record Point(double x, double y) {
    }

    /** One journey step (by step id). */
    public record StepResult(int step, String name, StepCounts counts, LatencyViews latencyMs) {
    }

    /** A step's counts, with the same meanings as {@link Counts}: sent = completed + errors. */
    public record StepCounts(long sent, long completed, long errors, long dropped) {

        /** These counts and {@code other}'s added. */
        public StepCounts plus(StepCounts other) {
            return new StepCounts(sent + other.sent, completed + other.completed, errors + other.errors,
                    dropped + other.dropped);
        }
    }
}
