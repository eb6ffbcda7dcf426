package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.stall.BuildInfo;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.ClockProbe;
import io.loadsmith.tester.agentclient.Replicas;
import io.loadsmith.tester.agentclient.ServerStall;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.align.MissingStalls;
import io.loadsmith.tester.align.RunAlignment;
import io.loadsmith.tester.align.StallAlignment;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.engine.Lane;
import io.loadsmith.tester.engine.LoadTest;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.Scheduler;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.engine.VirtualScheduler;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.ConnectionStats;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Transport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.TransportStats;
import io.loadsmith.tester.transport.Transports;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * One tester run, with or without stalls: probes the agent's clock, runs the warm-up, arms the agent at
 * the start of the counted run (the engine's {@link RunListener#countedStart} hook) with the plan's seed,
 * runs, lets the engine wait out the grace, fetches the run's stalls from {@code GET /stalls}, disarms,
 * checks that no planned stall inside the counted span is missing, and aligns the run's request log with
 * the windows, and with the service's pauses ({@link ServicePauses}). A real run (not on a virtual clock)
 * also observes the tester's own pauses from before its warm-up to after its end, unless {@link TesterSpec#testerPauses} is off ({@code tester_pauses},
 * {@code requests_met_tester_pause}; docs/pauses.md).
 *
 * <pre>{@code
 * StalledRun.Outcome outcome = StalledRun.real(TesterSpec.closed(1).duration(...), source,
 *         TransportOptions.connections(1), runDir, stalls, AlignedBins.forStall(stalls.durationNanos()));
 * outcome.alignment().summary().sentDuringTotal();   // 0 for a closed loop
 * }</pre>
 */
public final class StalledRun {

    /** The agent's stalls of a run, kept in its folder. */
    public static final String AGENT_STALLS_FILE = "agent-stalls.json";
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private StalledRun() {
    }

    /**
     * What a run produced.
     *
     * @param result    the engine's result, with {@code stall} set and the per-stall entries in {@code stalls}
     * @param offset    the clock offset measured (SAME_CLOCK when the run had no stalls); alignment uses
     *                  {@link ClockOffset#forAlignment()} of it
     * @param armed     what {@code /arm} answered; null without stalls
     * @param stalls    the run's stalls as the agent recorded them; empty without stalls
     * @param alignment the alignment of the run's requests with them; null without stalls
     * @param missing   indices of planned stalls inside the counted span that did not happen
     * @param versions  the tester's version, and the agent's when the run talked to one
     * @param replicas  with several agents ({@link ReplicatedRun}), what each did (offset, armed, stalls and
     *                  missing above are then the first one's, stalls every one's); null with one agent
     */
    public record Outcome(RunResult result, ClockOffset offset, AdminClient.Armed armed, List<ServerStall> stalls,
                          RunAlignment alignment, List<Integer> missing, ResultsFile.Versions versions,
                          List<Replicas.Replica> replicas) {

        /** An outcome of one agent (or none). */
        public Outcome(RunResult result, ClockOffset offset, AdminClient.Armed armed, List<ServerStall> stalls,
                       RunAlignment alignment, List<Integer> missing, ResultsFile.Versions versions) {
            this(result, offset, armed, stalls, alignment, missing, versions, null);
        }

        /** An outcome of this tester without an agent's version. */
        public Outcome(RunResult result, ClockOffset offset, AdminClient.Armed armed, List<ServerStall> stalls,
                       RunAlignment alignment, List<Integer> missing) {
            this(result, offset, armed, stalls, alignment, missing, ResultsFile.Versions.ofTester());
        }

        /** The same outcome with the result replaced. */
        public Outcome withResult(RunResult value) {
            return new Outcome(value, offset, armed, stalls, alignment, missing, versions, replicas);
        }

        /**
         * The same outcome with the transport that ran it in its result ({@code runs[].transport}): its kind,
         * HTTP version and loops, and with more than one loop what each loop sent.
         */
        public Outcome withTransport(TransportOptions options, OpenTransport http) {
            String kind = options.kind().wireName();
            String version = options.http().wireName();
            if (http.lanes().size() == 1) {
                return withResult(result.withTransport(new RunResult.TransportUsed(kind, version)));
            }
            List<Long> sentPerLoop = http.laneStats().stream().map(TransportStats::sent).toList();
            return withResult(result.withTransport(new RunResult.TransportUsed(kind, version, http.lanes().size(),
                    sentPerLoop)));
        }
    }

    /** This tester's version with the agent's, as its {@code GET /health} says ("unknown" where it is silent). */
    static ResultsFile.Versions withAgent(AdminClient admin) throws IOException {
        JsonNode health = admin.health();
        return ResultsFile.Versions.ofTester().withAgent(health.path("version").asText(BuildInfo.UNKNOWN),
                health.path("commit").asText(BuildInfo.UNKNOWN));
    }

    /**
     * How long after it is prepared a real run's counted run starts, at least: preparing it (the recorder's
     * files and histograms, arming the agent) takes the loop that also sends tens of milliseconds, and
     * arrivals planned inside that time would all be sent late.
     */
    static final long REAL_START_DELAY_NANOS = 200_000_000L;

    /**
     * Runs against a real service over HTTP, on the transport the options choose.
     *
     * @param stalls the agent to arm, or null for a run without stalls
     * @param bins   the geometry of the stall-aligned bins (shared by every run that is drawn together)
     */
    public static Outcome real(TesterSpec tester, RequestSource source, TransportOptions transport, Path runDir,
                               AgentStalls stalls, AlignedBins bins) throws IOException {
        return real(tester, source, transport, runDir, stalls, bins, new RunControl());
    }

    /** {@link #real(TesterSpec, RequestSource, TransportOptions, Path, AgentStalls, AlignedBins)}, stoppable through {@code control}. */
    public static Outcome real(TesterSpec tester, RequestSource source, TransportOptions transport, Path runDir,
                               AgentStalls stalls, AlignedBins bins, RunControl control) throws IOException {
        try (OpenTransport http = Transports.open(transport)) {
            return run(tester, http, source, runDir, stalls, bins, control).withTransport(transport, http);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the transport: " + e, e);
        }
    }

    /**
     * Runs on an opened transport and its scheduler, stoppable through {@code control}; the result carries
     * the transport's connection counts.
     */
    public static Outcome run(TesterSpec tester, OpenTransport http, RequestSource source, Path runDir,
                              AgentStalls stalls, AlignedBins bins, RunControl control) throws IOException {
        return run(tester, http, source, runDir, stalls, bins, control, null);
    }

    /**
     * {@link #run(TesterSpec, OpenTransport, RequestSource, Path, AgentStalls, AlignedBins, RunControl)} as a
     * shard of a split load whose stalls are shared ({@link SharedStalls}; null: not shared).
     */
    public static Outcome run(TesterSpec tester, OpenTransport http, RequestSource source, Path runDir,
                              AgentStalls stalls, AlignedBins bins, RunControl control, SharedStalls shared)
            throws IOException {
        TesterSpec prepared = tester.startDelay(Math.max(tester.startDelayNanos(), REAL_START_DELAY_NANOS));
        Outcome outcome = run(prepared, http.lanes(), source, runDir, stalls, bins, control, shared);
        ConnectionStats c = http.stats().connections();
        return c == null ? outcome : outcome.withResult(outcome.result().withConnections(new RunResult.Connections(
                c.opened(), c.reconnects(), c.failedConnects(), c.connectP50Ms(), c.connectMaxMs())));
    }

    /**
     * Runs on any scheduler and transport (the scheduler's clock must be the clock the agent is probed on),
     * stoppable through {@code control}.
     */
    public static Outcome run(TesterSpec tester, Scheduler scheduler, Transport transport, RequestSource source,
                              Path runDir, AgentStalls stalls, AlignedBins bins, RunControl control) throws IOException {
        return run(tester, List.of(new Lane(scheduler, transport)), source, runDir, stalls, bins, control);
    }

    /**
     * Runs on lanes (their schedulers read the clock the agent is probed on, through the first one's),
     * stoppable through {@code control}; the run's files are written off the loops by one daemon thread
     * ({@code loadsmith-writer}), or inline on a virtual clock.
     */
    public static Outcome run(TesterSpec tester, List<Lane> lanes, RequestSource source, Path runDir,
                              AgentStalls stalls, AlignedBins bins, RunControl control) throws IOException {
        return run(tester, lanes, source, runDir, stalls, bins, control, (SharedStalls) null);
    }

    private static Outcome run(TesterSpec tester, List<Lane> lanes, RequestSource source, Path runDir,
                               AgentStalls stalls, AlignedBins bins, RunControl control, SharedStalls shared)
            throws IOException {
        boolean virtual = lanes.get(0).scheduler() instanceof VirtualScheduler;
        ExecutorService writer = virtual ? null : Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "loadsmith-writer");
            thread.setDaemon(true);
            return thread;
        });
        TesterPauses self = virtual || !tester.testerPauses() ? null : TesterPauses.start();
        try {
            Outcome outcome = run(tester, lanes, source, runDir, stalls, bins, control,
                    writer == null ? Runnable::run : writer, self, shared);
            return self == null ? outcome : outcome.withResult(self.attach(outcome.result(), runDir));
        } finally {
            if (writer != null) {
                writer.shutdown();
            }
            if (self != null) {
                self.close();
            }
        }
    }

    /** The run, its files written by {@code writer}, its tester pauses observed by {@code self} (or null). */
    private static Outcome run(TesterSpec tester, List<Lane> lanes, RequestSource source, Path runDir,
                               AgentStalls stalls, AlignedBins bins, RunControl control, Executor writer,
                               TesterPauses self, SharedStalls shared) throws IOException {
        if (stalls != null && stalls.replicated()) {
            return ReplicatedRun.run(tester, lanes, source, runDir, stalls, bins, control, writer, self);
        }
        if (stalls == null) {
            RunResult result = LoadTest.run(tester.stall(false), lanes, source, runDir, new LoadTest.Options(
                    self == null ? RunListener.NONE : self.around(RunListener.NONE), control, writer));
            return new Outcome(result, ClockOffset.SAME_CLOCK, null, List.of(), null, List.of());
        }
        ClockOffset offset = ClockProbe.measure(lanes.get(0).scheduler(), stalls.admin()::serverNanos,
                ClockProbe.DEFAULT_PROBES);
        Scheduler clock = lanes.get(0).scheduler();
        Arming arming = new Arming(stalls, tester.durationNanos(), clock::nanoTime,
                !(clock instanceof VirtualScheduler), shared, offset.forAlignment(), control.live());
        RunResult result;
        try {
            result = LoadTest.run(tester.stall(true), lanes, source, runDir,
                    new LoadTest.Options(self == null ? arming : self.around(arming), control, writer));
        } catch (IOException | RuntimeException e) {
            if (arming.feed != null) {
                arming.feed.close();
            }
            throw e;
        }
        if (arming.failure != null) {
            throw arming.failure;
        }
        StallFeed.Fetched fetched;
        boolean arms = arming.armed != null;
        if (!arms) {
            // a shard that does not arm: the shared run's stalls, fetched once after the grace
            List<ServerStall> shardStalls = stalls.admin().stalls(shared.runId());
            fetched = new StallFeed.Fetched(shardStalls, clock.nanoTime(), -1, null);
            arming.armed = shared.armedAsRecorded(stalls, tester.durationNanos(), shardStalls,
                    offset.forAlignment().toServerNanos(arming.countStartNanos));
            if (shardStalls.isEmpty()) {
                result = result.withWarnings(List.of(shared.noneWarning()));
            }
        } else {
            try (StallFeed feed = arming.feed) {
                fetched = feed.finish();
            } catch (AdminException e) {
                stalls.admin().disarm();
                throw e;
            }
        }
        List<ServerStall> recorded = fetched.stalls();
        ResultsFile.Versions versions;
        if (fetched.lost()) {
            versions = ResultsFile.Versions.ofTester();
            disarmQuietly(stalls.admin());
        } else if (!arms) {
            versions = withAgent(stalls.admin()); // the shard that armed disarms
        } else {
            try {
                versions = withAgent(stalls.admin());
            } finally {
                stalls.admin().disarm();
            }
        }
        ObjectNode page = stallsPage(arming.armed.runId(), recorded);
        if (fetched.lost()) {
            page.put("agent_lost", true);
        }
        keepAgentStalls(page, runDir);
        List<StallWindow> windows = new ArrayList<>();
        List<Integer> indices = new ArrayList<>();
        ClockOffset aligning = offset.forAlignment();
        for (ServerStall stall : recorded) {
            windows.add(stall.onTesterClock(aligning));
            indices.add(stall.index());
        }
        long countedNanos = Math.round(result.durationMs() * 1e6); // the configured duration, or until a user stop
        long countEndNanos = arming.countStartNanos + countedNanos;
        long armedAtTesterNanos = aligning.toTesterNanos(arming.armed.armedAtNanos());
        List<Integer> missing = MissingStalls.missing(arming.armed.stalls(), armedAtTesterNanos,
                fetched.confirmedUntilNanos(countEndNanos), indices);
        RunAlignment alignment = StallAlignment.alignLog(runDir.resolve(RequestLog.FILE_NAME), windows,
                countedNanos, bins, StallAlignment.DEFAULT_SCATTER_CAP, tester.seed());
        String warning = MissingStalls.warning(missing);
        if (warning != null) {
            result = result.withWarnings(List.of(warning));
        }
        if (fetched.lost()) {
            result = StallFeed.withAgentLost(result, fetched, arming.armed.stalls(), armedAtTesterNanos,
                    arming.countStartNanos, countEndNanos, missing);
        } else {
            result = ServicePauses.attach(result, stalls.admin(), arming.armed.runId(), aligning, arming.countStartNanos,
                    countedNanos, tester.graceNanos(), runDir);
        }
        return new Outcome(result, offset, arming.armed, recorded, alignment, missing, versions);
    }

    /** After a lost agent: one bounded try (the admin client's timeouts) to cancel what it may still run. */
    private static void disarmQuietly(AdminClient admin) {
        try {
            admin.disarm();
        } catch (AdminException gone) {
            // the agent is gone: nothing of it is left to disarm
        }
    }

    /**
     * Writes {@code page} to {@value #AGENT_STALLS_FILE} in {@code runDir}: the run's stalls, every page of
     * them, in the shape of the agent's {@code GET /stalls?run_id=} answer (with {@code "agent_lost": true}
     * when the agent stopped answering), beside its request log, so that its per-stall figures can be
     * recomputed ({@code loadsmith verify}).
     */
    static void keepAgentStalls(ObjectNode page, Path runDir) throws IOException {
        AtomicFiles.write(runDir.resolve(AGENT_STALLS_FILE), out -> PRETTY.writeValue(out, page));
    }

    /** One agent's stalls of a run as its {@code GET /stalls?run_id=} answers them. */
    static ObjectNode stallsPage(String runId, List<ServerStall> recorded) {
        ObjectNode page = PRETTY.createObjectNode().put("run_id", runId);
        ArrayNode stalls = page.putArray("stalls");
        for (ServerStall stall : recorded) {
            stalls.addObject().put("index", stall.index()).put("run_id", stall.runId())
                    .put("planned_start_ns", stall.plannedStartNanos()).put("start_ns", stall.startNanos())
                    .put("end_ns", stall.endNanos()).put("held", stall.held()).put("kind", stall.kind());
        }
        return page;
    }

    /**
     * Arms the agent when the engine decides the counted start and starts fetching the run's stalls as it
     * goes (a {@link StallFeed}; fetched by hand only on a virtual clock); a shard that does not arm the
     * shared stalls only notes the start. Remembers a failure for the caller.
     */
    private static final class Arming implements RunListener {
        private final AgentStalls stalls;
        private final long horizonNanos;
        private final LongSupplier clock;
        private final boolean polling;
        private final SharedStalls shared;
        private final ClockOffset offset;
        private final LiveStats live;
        AdminClient.Armed armed;
        AdminException failure;
        long countStartNanos;
        StallFeed feed;

        Arming(AgentStalls stalls, long horizonNanos, LongSupplier clock, boolean polling, SharedStalls shared,
               ClockOffset offset, LiveStats live) {
            this.stalls = stalls;
            this.offset = offset;
            this.live = live;
            this.horizonNanos = horizonNanos;
            this.clock = clock;
            this.polling = polling;
            this.shared = shared;
        }

        @Override
        public void countedStart(long startNanos) {
            countStartNanos = startNanos;
            if (shared != null && !shared.arms()) {
                return;
            }
            try {
                armed = stalls.admin().arm(stalls.spec(horizonNanos), stalls.kind(),
                        shared == null ? null : shared.runId());
                feed = StallFeed.of(stalls.admin(), armed.runId(), clock, polling).showLive(live, "0", armed, offset);
            } catch (AdminException e) {
                failure = e;
            }
        }
    }
}
