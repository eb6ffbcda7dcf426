package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.stall.BuildInfo;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.agentclient.AdminApi;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.ClockProbe;
import io.loadsmith.tester.agentclient.Replicas;
import io.loadsmith.tester.agentclient.ServerStall;
import io.loadsmith.tester.align.MissingStalls;
import io.loadsmith.tester.align.RunAlignment;
import io.loadsmith.tester.align.StallAlignment;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.AgentActivity;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.transport.ConnectionStats;
import io.loadsmith.tester.transport.Lane;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.ServedBy;
import io.loadsmith.tester.transport.Transport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.TransportStats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One tester run, with or without stalls, over the agents of {@link AgentStalls} (one, or one per replica
 * of the service: {@link Replicas}). The pipeline, for one agent as for several: probe every agent's clock
 * (one that cannot be reached fails the run before it starts, naming it), run the warm-up, arm every agent
 * at the start of the counted run (the engine's {@link RunListener#countedStart} hook) with the plan's seed
 * (each gives its run its own id), run, fetch each one's stalls as the run goes and after the grace
 * ({@link StallFeed}: an agent that stops answering keeps the windows fetched before and is marked
 * {@code agent_lost}; the run's is the first agent lost), disarm them all, judge each agent's planned
 * stalls (those inside the counted span that did not happen are missing), align the run's request log with
 * every agent's windows, each moved to the tester's clock through its own offset, and with their pauses
 * ({@link ServicePauses}). With several agents a window keeps its replica ({@link StallWindow#replica()},
 * the agent's place in the list): a request that names the replica that served it counts only for that
 * replica's windows, one that does not counts against every replica's.
 *
 * <p>A real run ({@link #real}, {@link #run}) writes its files off the loops on one daemon thread
 * ({@code loadsmith-writer}), fetches stalls on a thread per agent, and observes the tester's own pauses
 * from before its warm-up to after its end, unless {@link StallOptions#testerPauses} is off
 * ({@code tester_pauses}, {@code requests_met_tester_pause}; docs/pauses.md). A run on a virtual clock
 * ({@link #onVirtualClock}) does all of that on its scheduler's thread, and observes no tester pauses.
 *
 * <pre>{@code
 * StalledRun.StalledResult outcome = StalledRun.real(TesterSpec.closed(1).duration(...), source,
 *         TransportOptions.connections(1), runDir, StallOptions.stalled(stalls));
 * outcome.alignment().summary().sentDuringTotal();   // 0 for a closed loop
 * }</pre>
 */
public final class StalledRun {

    /** The agent's stalls of a run, kept in its folder. */
    public static final String AGENT_STALLS_FILE = "agent-stalls.json";
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * How long after it is prepared a real run's counted run starts, at least: preparing it (the recorder's
     * files and histograms, arming the agent) takes the loop that also sends tens of milliseconds, and
     * arrivals planned inside that time would all be sent late.
     */
    static final long REAL_START_DELAY_NANOS = 200_000_000L;

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
     * @param replicas  with several agents, what each did (offset, armed, stalls and missing above are then
     *                  the first one's, stalls every one's); null with one agent
     * @param replayed  a replayed plan's pause of each window, by the agent's stall index; null for a seeded plan
     */
    public record StalledResult(RunResult result, ClockOffset offset, AdminClient.Armed armed, List<ServerStall> stalls,
                          RunAlignment alignment, List<Integer> missing, ResultsFile.Versions versions,
                          List<Replicas.Replica> replicas, List<RunResult.Replayed> replayed) {

        /** An outcome of this tester without an agent's version, nor replicas, of a seeded plan. */
        public StalledResult(RunResult result, ClockOffset offset, AdminClient.Armed armed, List<ServerStall> stalls,
                       RunAlignment alignment, List<Integer> missing) {
            this(result, offset, armed, stalls, alignment, missing, ResultsFile.Versions.ofTester(), null, null);
        }

        /** The same outcome with the result replaced. */
        public StalledResult withResult(RunResult value) {
            return new StalledResult(value, offset, armed, stalls, alignment, missing, versions, replicas, replayed);
        }

        /**
         * The same outcome with the transport that ran it in its result ({@code runs[].transport}): its kind,
         * HTTP version and loops, and with more than one loop what each loop sent.
         */
        public StalledResult withTransport(TransportOptions options, OpenTransport http) {
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

    /** Runs against a real service over HTTP, on the transport {@code transport} chooses. */
    public static StalledResult real(TesterSpec tester, RequestSource source, TransportOptions transport, Path runDir,
                               StallOptions options) throws IOException {
        try (OpenTransport http = Transports.open(transport)) {
            return run(tester, http, source, runDir, options).withTransport(transport, http);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the transport: " + e, e);
        }
    }

    /** Runs on an opened transport, in real time; the result carries the transport's connection counts. */
    public static StalledResult run(TesterSpec tester, OpenTransport http, RequestSource source, Path runDir,
                              StallOptions options) throws IOException {
        TesterSpec prepared = tester.startDelay(Math.max(tester.startDelayNanos(), REAL_START_DELAY_NANOS));
        ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "loadsmith-writer");
            thread.setDaemon(true);
            return thread;
        });
        TesterPauses self = options.testerPauses() ? TesterPauses.start() : null;
        StalledResult outcome;
        try {
            outcome = run(prepared, http.lanes(), source, runDir, options, new Background(writer, StallFeed.Poller.THREAD, self));
            if (self != null) {
                outcome = outcome.withResult(self.attach(outcome.result(), runDir));
            }
        } finally {
            writer.shutdown();
            if (self != null) {
                self.close();
            }
        }
        ConnectionStats c = http.stats().connections();
        return c == null ? outcome : outcome.withResult(outcome.result().withConnections(new RunResult.Connections(
                c.opened(), c.reconnects(), c.failedConnects(), c.connectP50Ms(), c.connectMaxMs())));
    }

    /**
     * Runs on a virtual clock: the agents are probed on it, the files written and the stalls fetched on its
     * thread, and the tester's own pauses not observed.
     */
    static StalledResult onVirtualClock(TesterSpec tester, VirtualScheduler scheduler, Transport transport,
                                  RequestSource source, Path runDir, StallOptions options) throws IOException {
        return run(tester, List.of(new Lane(scheduler, transport)), source, runDir, options,
                new Background(Runnable::run, StallFeed.Poller.on(scheduler), null));
    }

    /**
     * How a run does its work beside the engine's: who writes its files, who fetches its stalls as it goes,
     * and what observes the tester's own pauses (null: nothing).
     */
    private record Background(Executor writer, StallFeed.Poller poller, TesterPauses self) {

        LoadRun.RunOptions engine(RunListener listener, RunControl control) {
            return new LoadRun.RunOptions(self == null ? listener : self.around(listener), control, writer);
        }
    }

    /** The run on lanes whose schedulers read the clock the agents are probed on (the first one's). */
    private static StalledResult run(TesterSpec tester, List<Lane> lanes, RequestSource source, Path runDir,
                               StallOptions options, Background side) throws IOException {
        if (options.stalls() == null) {
            RunResult result = LoadRun.run(tester, lanes, source, runDir, side.engine(RunListener.NONE, options.control()));
            return new StalledResult(result, ClockOffset.SAME_CLOCK, null, List.of(), null, List.of());
        }
        Clock clock = lanes.get(0).scheduler();
        List<Agent> agents = probed(options.stalls().replicas(), clock);
        Arming arming = new Arming(agents, options, tester.durationNanos(), clock, side.poller());
        RunResult result;
        try {
            result = LoadRun.run(tester, lanes, source, runDir, side.engine(arming, options.control()))
                    .with(r -> r.stall = !options.stalls().control());
        } catch (IOException | RuntimeException e) {
            agents.forEach(Agent::closeFeed);
            throw e;
        }
        if (arming.failure != null) {
            agents.forEach(Agent::closeFeed);
            disarmQuietly(agents);
            throw arming.failure;
        }
        List<String> warnings = new ArrayList<>();
        SharedStalls shared = options.shared();
        if (shared != null && !shared.arms()) {
            fetchShared(agents.get(0), options.stalls(), shared, tester.durationNanos(), arming.countStartNanos, clock,
                    warnings);
        } else {
            finishFeeds(agents);
        }
        JsonNode health;
        try {
            health = health(agents); // before the disarm: the observer as it ran
        } finally {
            if (shared == null || shared.arms()) { // the shard that armed disarms
                disarm(agents);
            }
        }
        ResultsFile.Versions versions = health == null ? ResultsFile.Versions.ofTester()
                : ResultsFile.Versions.ofTester().withAgent(health.path("version").asText(BuildInfo.UNKNOWN),
                        health.path("commit").asText(BuildInfo.UNKNOWN));
        AgentActivity activity = activity(options.stalls(), agents.get(0).armed, health);
        return judgedAndAligned(result.with(r -> r.agentActivity = activity), agents, arming.countStartNanos, versions,
                warnings, tester, options, runDir);
    }

    /**
     * The run's outcome once its agents' stalls are in: each agent's judged, kept, aligned with the request
     * log and its pauses attached; with several agents, each one's requests served and {@code replicas[]}.
     */
    private static StalledResult judgedAndAligned(RunResult run, List<Agent> agents, long countStartNanos,
                                            ResultsFile.Versions versions, List<String> warnings, TesterSpec tester,
                                            StallOptions options, Path runDir) throws IOException {
        RunResult result = run;
        long countedNanos = Math.round(result.durationMs() * 1e6); // the configured duration, or until a user stop
        List<Replicas.Replica> judged = new ArrayList<>();
        for (Agent agent : agents) {
            judged.add(judged(agent, agents.size() > 1, countStartNanos, countedNanos, warnings));
        }
        keepAgentStalls(judged, runDir);
        Path log = runDir.resolve(RequestLog.FILE_NAME);
        RunAlignment alignment = StallAlignment.alignLog(log, windows(judged), countedNanos, options.bins(),
                StallAlignment.DEFAULT_SCATTER_CAP, tester.seed(), number -> replicaOf(agents, number));
        if (agents.size() > 1) {
            judged = withServed(judged, log);
            result = result.withReplicas(used(judged));
        }
        result = result.withWarnings(warnings);
        RunResult.AgentLost firstLost = judged.stream().map(Replicas.Replica::lost).filter(Objects::nonNull)
                .min(Comparator.comparingDouble(RunResult.AgentLost::atMs)).orElse(null);
        if (firstLost != null) {
            result = result.withAgentLost(firstLost);
        }
        result = ServicePauses.attach(result, judged, agents.stream().map(a -> a.admin).toList(),
                countStartNanos, countedNanos, tester.graceNanos(), runDir, number -> replicaOf(agents, number));
        Replicas.Replica first = judged.get(0);
        List<ServerStall> every = judged.stream().flatMap(r -> r.stalls().stream()).toList();
        return new StalledResult(result, first.offset(), first.armed(), every, alignment, first.missing(), versions,
                agents.size() > 1 ? judged : null, options.stalls().replay() == null || options.stalls().control() ? null
                        : options.stalls().replay().replayed());
    }

    /** Every agent's windows on the tester's clock, each through its own offset; with several, as its replica's. */
    private static List<StallWindow> windows(List<Replicas.Replica> replicas) {
        List<StallWindow> windows = new ArrayList<>();
        for (int r = 0; r < replicas.size(); r++) {
            ClockOffset aligning = replicas.get(r).offset().forAlignment();
            int replica = replicas.size() > 1 ? r : StallWindow.NO_REPLICA;
            replicas.get(r).stalls().forEach(stall -> windows.add(stall.onTesterClock(aligning, replica)));
        }
        return windows;
    }

    /**
     * One agent's part of a run, from its probe to its stalls: its clock offset, its id of itself (asked only
     * of several agents, to tell which served a request), what its {@code /arm} answered and its feed.
     */
    private static final class Agent {
        final AdminApi admin;
        final ClockOffset offset;
        final String replicaId;
        final int servedBy;
        AdminClient.Armed armed;
        StallFeed feed;
        StallFeed.Fetched fetched;

        Agent(AdminApi admin, ClockOffset offset, String replicaId) {
            this.admin = admin;
            this.offset = offset;
            this.replicaId = replicaId;
            this.servedBy = replicaId == null ? ServedBy.NONE : ServedBy.number(replicaId);
        }

        void closeFeed() {
            if (feed != null) {
                feed.close();
            }
        }
    }

    /** Every agent with its clock offset to {@code clock}, then, with several, its replica id, in order. */
    private static List<Agent> probed(List<AdminApi> admins, Clock clock) throws IOException {
        List<ClockOffset> offsets = new ArrayList<>();
        for (AdminApi admin : admins) {
            offsets.add(ClockProbe.measure(clock, admin::serverNanos, ClockProbe.DEFAULT_PROBES));
        }
        List<Agent> agents = new ArrayList<>();
        for (int r = 0; r < admins.size(); r++) {
            JsonNode replica = admins.size() == 1 ? null : admins.get(r).health().path("replica");
            agents.add(new Agent(admins.get(r), offsets.get(r), replica != null && replica.isTextual()
                    ? replica.asText() : null));
        }
        return agents;
    }

    /** Each agent's stalls by the end of the run; when one answers with an error, every agent is disarmed. */
    private static void finishFeeds(List<Agent> agents) throws AdminException {
        try {
            for (Agent agent : agents) {
                agent.fetched = agent.feed.finish();
            }
        } catch (AdminException e) {
            disarmQuietly(agents);
            throw e;
        } finally {
            agents.forEach(Agent::closeFeed);
        }
    }

    /**
     * A shard that did not arm: the shared run's stalls, fetched once after the grace, and what the arming
     * shard's {@code /arm} answered as they show it; a warning when there are none.
     */
    private static void fetchShared(Agent agent, AgentStalls stalls, SharedStalls shared, long horizonNanos,
                                    long countStartNanos, Clock clock, List<String> warnings) throws AdminException {
        List<ServerStall> recorded = agent.admin.stalls(shared.runId());
        agent.fetched = new StallFeed.Fetched(recorded, clock.nanoTime(), -1, null);
        agent.armed = shared.armedAsRecorded(stalls, horizonNanos, recorded,
                agent.offset.forAlignment().toServerNanos(countStartNanos));
        if (recorded.isEmpty()) {
            warnings.add(shared.noneWarning());
        }
    }

    /**
     * One agent's part of the run judged: the windows it gave, the planned stalls it missed (up to where its
     * answers confirm what happened) and, when it stopped answering, what that left unknown; a warning for
     * each of those goes to {@code warnings}, naming the agent when there are several.
     */
    private static Replicas.Replica judged(Agent agent, boolean several, long countStartNanos, long countedNanos,
                                           List<String> warnings) {
        String address = agent.admin.base().toString();
        String named = several ? "replica " + address + ": " : "";
        long countEndNanos = countStartNanos + countedNanos;
        StallFeed.Fetched feed = agent.fetched;
        long armedAtTesterNanos = agent.offset.forAlignment().toTesterNanos(agent.armed.armedAtNanos());
        List<Integer> indices = feed.stalls().stream().map(ServerStall::index).toList();
        List<Integer> missing = MissingStalls.missing(agent.armed.stalls(), armedAtTesterNanos,
                feed.confirmedUntilNanos(countEndNanos), indices);
        String warning = MissingStalls.warning(missing);
        if (warning != null) {
            warnings.add(named + warning);
        }
        RunResult.AgentLost lost = !feed.lost() ? null : StallFeed.agentLost(feed, agent.armed.stalls(),
                armedAtTesterNanos, countStartNanos, countEndNanos, missing);
        if (lost != null) {
            warnings.add(named + StallFeed.warning(lost.atMs(), feed.stalls().size(), lost.unconfirmedStalls()));
        }
        return new Replicas.Replica(address, agent.replicaId, agent.offset, agent.armed, feed.stalls(), missing,
                agent.servedBy, 0, lost);
    }

    /** This tester's version with the first answering agent's, as its {@code GET /health} says. */
    /** {@code GET /health} of the first agent that answered to the end; null when none did. */
    private static JsonNode health(List<Agent> agents) throws IOException {
        for (Agent agent : agents) {
            if (!agent.fetched.lost()) {
                return agent.admin.health();
            }
        }
        return null;
    }

    /**
     * What ran in the service: the plan armed, and the pause observer as {@code health} (the first agent's,
     * null: none answered) says; null when there is no health to read.
     */
    static AgentActivity activity(AgentStalls stalls, AdminClient.Armed armed, JsonNode health) {
        if (health == null) {
            return null;
        }
        String plan = stalls.control() ? "none" : stalls.replay() != null ? "replay" : "seeded";
        int windows = armed == null ? 0 : armed.stalls().size();
        JsonNode pauses = health.path("pauses");
        boolean observing = pauses.path("observing").asBoolean(false);
        return new AgentActivity(plan, windows, observing,
                observing ? pauses.path("mode").asText(null) : null, observing && pauses.path("running").asBoolean(false),
                observing ? pauses.path("jfr").asText(null) : null,
                observing && pauses.has("sleeper_park_ms") ? pauses.get("sleeper_park_ms").asLong() : null);
    }

    /**
     * Disarms every agent, even after one fails, and throws the first failure of an agent that answered to
     * the end; an agent lost during the run (or not yet fetched) gets one bounded try (the admin client's
     * timeouts) whose failure is ignored.
     */
    private static void disarm(List<Agent> agents) throws AdminException {
        AdminException first = null;
        for (Agent agent : agents) {
            try {
                agent.admin.disarm();
            } catch (AdminException e) {
                boolean answered = agent.fetched != null && !agent.fetched.lost();
                first = first == null && answered ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Disarms every agent, ignoring failures: another failure is the one to report. */
    private static void disarmQuietly(List<Agent> agents) {
        for (Agent agent : agents) {
            try {
                agent.admin.disarm();
            } catch (AdminException e) {
                // the failure already in hand is the one to report
            }
        }
    }

    /**
     * Keeps the run's stalls in {@value #AGENT_STALLS_FILE}, beside its request log, so that its per-stall
     * figures can be recomputed ({@code loadsmith verify}): one agent's in the shape of its
     * {@code GET /stalls?run_id=} answer, every page of them; several agents' as {@code {"replicas":
     * [{"replica": URL, "run_id": ..., "stalls": [...]}]}}; with {@code "agent_lost": true} for an agent that
     * stopped answering (its windows fetched before).
     */
    private static void keepAgentStalls(List<Replicas.Replica> replicas, Path runDir) throws IOException {
        ObjectNode file;
        if (replicas.size() == 1) {
            file = stallsPage(replicas.get(0));
            if (replicas.get(0).lost() != null) {
                file.put("agent_lost", true);
            }
        } else {
            file = PRETTY.createObjectNode();
            ArrayNode each = file.putArray("replicas");
            for (Replicas.Replica r : replicas) {
                ObjectNode one = each.addObject().put("replica", r.address());
                if (r.lost() != null) {
                    one.put("agent_lost", true);
                }
                one.setAll(stallsPage(r));
            }
        }
        AtomicFiles.write(runDir.resolve(AGENT_STALLS_FILE), out -> PRETTY.writeValue(out, file));
    }

    /** One agent's stalls of a run as its {@code GET /stalls?run_id=} answers them. */
    private static ObjectNode stallsPage(Replicas.Replica replica) {
        ObjectNode page = PRETTY.createObjectNode().put("run_id", replica.armed().runId());
        ArrayNode stalls = page.putArray("stalls");
        for (ServerStall stall : replica.stalls()) {
            stalls.addObject().put("index", stall.index()).put("run_id", stall.runId())
                    .put("planned_start_ns", stall.plannedStartNanos()).put("start_ns", stall.startNanos())
                    .put("end_ns", stall.endNanos()).put("held", stall.held()).put("kind", stall.kind());
        }
        return page;
    }

    /** The agent (its place in the list) whose id has served-by {@code number}; NO_REPLICA for none. */
    private static int replicaOf(List<Agent> agents, int number) {
        for (int r = 0; number != ServedBy.NONE && r < agents.size(); r++) {
            if (agents.get(r).servedBy == number) {
                return r;
            }
        }
        return StallWindow.NO_REPLICA;
    }

    /** The replicas with the requests of the counted run each one served, read from the request log. */
    private static List<Replicas.Replica> withServed(List<Replicas.Replica> replicas, Path log) throws IOException {
        long[] served = new long[replicas.size()];
        try (RequestLog.Reader records = RequestLog.read(log)) {
            long startNanos = records.runStartNanos();
            while (records.hasNext()) {
                RequestRecord r = records.next();
                for (int k = 0; r.intendedNanos() >= startNanos && r.servedBy() != ServedBy.NONE && k < served.length; k++) {
                    if (replicas.get(k).servedBy() == r.servedBy()) {
                        served[k]++;
                    }
                }
            }
        }
        List<Replicas.Replica> counted = new ArrayList<>();
        for (int k = 0; k < served.length; k++) {
            Replicas.Replica r = replicas.get(k);
            counted.add(new Replicas.Replica(r.address(), r.replicaId(), r.offset(), r.armed(), r.stalls(), r.missing(),
                    r.servedBy(), served[k], r.lost()));
        }
        return counted;
    }

    /** The {@code replicas[]} of a run's result: each agent's address, run id, clock offset and stalls. */
    private static List<RunResult.ReplicaUsed> used(List<Replicas.Replica> replicas) {
        List<RunResult.ReplicaUsed> used = new ArrayList<>();
        for (Replicas.Replica r : replicas) {
            used.add(new RunResult.ReplicaUsed(r.address(), r.replicaId(), r.armed().runId(), r.offset().offsetNanos(),
                    r.offset().uncertaintyNanos(), r.offset().forAlignment().offsetNanos(), r.stalls().size(),
                    r.missing(), r.servedBy(), r.requestsServed(), r.lost()));
        }
        return used;
    }

    /**
     * Arms every agent, in order, when the engine decides the counted start, and starts fetching each one's
     * stalls as the run goes ({@link StallFeed}), so that an agent that dies keeps the windows it ended
     * before; a shard that does not arm the shared stalls only notes the start. Remembers a failure for the
     * caller.
     */
    private static final class Arming implements RunListener {
        private final List<Agent> agents;
        private final AgentStalls stalls;
        private final SharedStalls shared;
        private final long horizonNanos;
        private final Clock clock;
        private final StallFeed.Poller poller;
        private final LiveStats live;
        AdminException failure;
        long countStartNanos;

        Arming(List<Agent> agents, StallOptions options, long horizonNanos, Clock clock, StallFeed.Poller poller) {
            this.agents = agents;
            this.stalls = options.stalls();
            this.shared = options.shared();
            this.live = options.control().live();
            this.horizonNanos = horizonNanos;
            this.clock = clock;
            this.poller = poller;
        }

        @Override
        public void countedStart(long startNanos) {
            countStartNanos = startNanos;
            if (shared != null && !shared.arms()) {
                return;
            }
            try {
                for (Agent agent : agents) {
                    agent.armed = stalls.arm(agent.admin, agent.offset.forAlignment(), horizonNanos, startNanos, clock,
                            shared == null ? null : shared.runId());
                }
            } catch (AdminException e) {
                failure = e;
                return;
            }
            for (int r = 0; r < agents.size(); r++) {
                Agent agent = agents.get(r);
                agent.feed = StallFeed.start(agent.admin, agent.armed.runId(), clock, poller)
                        .showLive(live, Integer.toString(r), agent.armed, agent.offset.forAlignment());
            }
        }
    }
}
