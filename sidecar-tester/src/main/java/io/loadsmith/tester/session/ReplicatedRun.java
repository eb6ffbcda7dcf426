package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.ServedBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * A {@link StalledRun} against several replicas of a service, each with its agent ({@link Replicas}):
 * probes every agent's clock before the run (one that cannot be reached fails the run before it starts,
 * naming it), arms them all at the counted start with the same seeded plan (each gives its run its own id),
 * fetches each one's stalls as the run goes and after the grace ({@link StallFeed}: an agent that stops
 * answering keeps the windows fetched before, and its replica gets an {@code agent_lost}; the run's is the
 * first agent lost), disarms them all, aligns the run's requests with every
 * replica's windows, each moved to the tester's clock through its own offset. A window keeps its replica
 * ({@link StallWindow#replica()}, the agent's place in the list): a request that names the replica that
 * served it counts only for that replica's windows, one that does not counts against every replica's. The
 * agents' observed pauses are counted the same way, each as its replica's ({@link ServicePauses}).
 */
final class ReplicatedRun {

    private ReplicatedRun() {
    }

    /** The run, as {@link StalledRun} runs it with one agent; {@code stalls} has several. */
    static StalledRun.Outcome run(TesterSpec tester, List<Lane> lanes, RequestSource source, Path runDir,
                                  AgentStalls stalls, AlignedBins bins, RunControl control, Executor writer,
                                  TesterPauses self) throws IOException {
        Replicas replicas = Replicas.of(stalls.replicas());
        Scheduler clock = lanes.get(0).scheduler();
        List<ClockOffset> offsets = replicas.probe(clock, ClockProbe.DEFAULT_PROBES);
        List<String> ids = replicas.replicaIds();
        int[] servedBy = new int[ids.size()];
        for (int r = 0; r < ids.size(); r++) {
            servedBy[r] = ids.get(r) == null ? ServedBy.NONE : ServedBy.number(ids.get(r));
        }
        Arming arming = new Arming(replicas, stalls, tester.durationNanos(), clock::nanoTime,
                !(clock instanceof VirtualScheduler), offsets, control.live());
        RunResult result;
        try {
            result = LoadTest.run(tester.stall(true), lanes, source, runDir,
                    new LoadTest.Options(self == null ? arming : self.around(arming), control, writer));
        } catch (IOException | RuntimeException e) {
            arming.closeFeeds();
            throw e;
        }
        if (arming.failure != null) {
            arming.closeFeeds();
            disarmQuietly(replicas.agents(), null);
            throw arming.failure;
        }
        List<StallFeed.Fetched> fetched;
        try {
            fetched = arming.finishFeeds();
        } catch (AdminException e) {
            disarmQuietly(replicas.agents(), null);
            throw e;
        }
        ResultsFile.Versions versions;
        try {
            versions = versions(replicas.agents(), fetched);
        } finally {
            disarm(replicas.agents(), fetched);
        }
        long countedNanos = Math.round(result.durationMs() * 1e6); // the configured duration, or until a user stop
        long countEndNanos = arming.countStartNanos + countedNanos;
        List<Replicas.Replica> done = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int r = 0; r < fetched.size(); r++) {
            done.add(judged(replicas.agents().get(r).base().toString(), ids.get(r), servedBy[r], offsets.get(r),
                    arming.armed.get(r), fetched.get(r), arming.countStartNanos, countEndNanos, warnings));
        }
        List<StallWindow> windows = new ArrayList<>();
        List<ServerStall> every = new ArrayList<>();
        for (int r = 0; r < done.size(); r++) {
            for (ServerStall stall : done.get(r).stalls()) {
                windows.add(stall.onTesterClock(done.get(r).offset().forAlignment(), r));
            }
            every.addAll(done.get(r).stalls());
        }
        keepAgentStalls(done, runDir);
        Path log = runDir.resolve(RequestLog.FILE_NAME);
        RunAlignment alignment = StallAlignment.alignLog(log, windows, countedNanos, bins,
                StallAlignment.DEFAULT_SCATTER_CAP, tester.seed(), number -> replicaOf(servedBy, number));
        done = withServed(done, log);
        result = result.withReplicas(used(done));
        if (!warnings.isEmpty()) {
            result = result.withWarnings(warnings);
        }
        RunResult.AgentLost firstLost = done.stream().map(Replicas.Replica::lost).filter(Objects::nonNull)
                .min(Comparator.comparingDouble(RunResult.AgentLost::atMs)).orElse(null);
        if (firstLost != null) {
            result = result.withAgentLost(firstLost);
        }
        result = ServicePauses.attach(result, done, replicas.agents(), arming.countStartNanos, countedNanos,
                tester.graceNanos(), runDir, number -> replicaOf(servedBy, number));
        Replicas.Replica first = done.get(0);
        return new StalledRun.Outcome(result, first.offset(), first.armed(), every, alignment, first.missing(),
                versions, done);
    }

    /**
     * One replica's part of the run: the windows its agent gave, the planned stalls it missed (up to where its
     * answers confirm what happened) and, when it stopped answering, what that left unknown; a warning for each
     * of those, naming it, goes to {@code warnings}.
     */
    private static Replicas.Replica judged(String address, String id, int servedBy, ClockOffset offset,
                                           AdminClient.Armed armed, StallFeed.Fetched feed, long countStartNanos,
                                           long countEndNanos, List<String> warnings) {
        ClockOffset aligning = offset.forAlignment();
        long armedAtTesterNanos = aligning.toTesterNanos(armed.armedAtNanos());
        List<Integer> indices = feed.stalls().stream().map(ServerStall::index).toList();
        List<Integer> missing = MissingStalls.missing(armed.stalls(), armedAtTesterNanos,
                feed.confirmedUntilNanos(countEndNanos), indices);
        String warning = MissingStalls.warning(missing);
        if (warning != null) {
            warnings.add("replica " + address + ": " + warning);
        }
        RunResult.AgentLost lost = !feed.lost() ? null : StallFeed.agentLost(feed, armed.stalls(), armedAtTesterNanos,
                countStartNanos, countEndNanos, missing);
        if (lost != null) {
            warnings.add("replica " + address + ": "
                    + StallFeed.warning(lost.atMs(), feed.stalls().size(), lost.unconfirmedStalls()));
        }
        return new Replicas.Replica(address, id, offset, armed, feed.stalls(), missing, servedBy, 0, lost);
    }

    /** This tester's version with the first answering agent's; this tester's alone when none answered. */
    private static ResultsFile.Versions versions(List<AdminClient> agents, List<StallFeed.Fetched> fetched)
            throws IOException {
        for (int r = 0; r < agents.size(); r++) {
            if (!fetched.get(r).lost()) {
                return StalledRun.withAgent(agents.get(r));
            }
        }
        return ResultsFile.Versions.ofTester();
    }

    /**
     * Disarms every agent, even after one fails, and throws the first failure of an agent that answered to
     * the end; an agent lost during the run gets one bounded try whose failure is ignored ({@code fetched}
     * null: none was lost).
     */
    private static void disarm(List<AdminClient> agents, List<StallFeed.Fetched> fetched) throws AdminException {
        AdminException first = null;
        for (int r = 0; r < agents.size(); r++) {
            try {
                agents.get(r).disarm();
            } catch (AdminException e) {
                if ((fetched == null || !fetched.get(r).lost()) && first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Keeps the run's stalls of every agent in {@value StalledRun#AGENT_STALLS_FILE}, as {@code run} keeps
     * them: {@code {"replicas": [{"replica": URL, "run_id": ..., "stalls": [...]}]}}, with
     * {@code "agent_lost": true} in a replica whose agent stopped answering (its windows fetched before).
     */
    private static void keepAgentStalls(List<Replicas.Replica> replicas, Path runDir) throws IOException {
        ObjectNode all = JsonNodeFactory.instance.objectNode();
        ArrayNode each = all.putArray("replicas");
        for (Replicas.Replica r : replicas) {
            ObjectNode one = each.addObject().put("replica", r.address());
            if (r.lost() != null) {
                one.put("agent_lost", true);
            }
            one.setAll(StalledRun.stallsPage(r.armed().runId(), r.stalls()));
        }
        StalledRun.keepAgentStalls(all, runDir);
    }

    /** The agent (its place in the list) whose id has served-by {@code number}; NO_REPLICA for none. */
    private static int replicaOf(int[] servedBy, int number) {
        for (int r = 0; number != ServedBy.NONE && r < servedBy.length; r++) {
            if (servedBy[r] == number) {
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

    /** Disarms every agent, ignoring failures: another failure is the one to report. */
    private static void disarmQuietly(List<AdminClient> agents, List<StallFeed.Fetched> fetched) {
        try {
            disarm(agents, fetched);
        } catch (AdminException e) {
            // the failure already in hand is the one to report
        }
    }

    /**
     * Arms every agent when the engine decides the counted start and starts fetching each one's stalls as the
     * run goes ({@link StallFeed}, by hand on a virtual clock), so that an agent that dies keeps the windows
     * it ended before; remembers a failure for the caller.
     */
    private static final class Arming implements RunListener {
        private final Replicas replicas;
        private final AgentStalls stalls;
        private final long horizonNanos;
        private final LongSupplier clock;
        private final boolean polling;
        private final List<StallFeed> feeds = new ArrayList<>();
        private final List<ClockOffset> offsets;
        private final LiveStats live;
        List<AdminClient.Armed> armed;
        AdminException failure;
        long countStartNanos;

        Arming(Replicas replicas, AgentStalls stalls, long horizonNanos, LongSupplier clock, boolean polling,
               List<ClockOffset> offsets, LiveStats live) {
            this.replicas = replicas;
            this.offsets = offsets;
            this.live = live;
            this.stalls = stalls;
            this.horizonNanos = horizonNanos;
            this.clock = clock;
            this.polling = polling;
        }

        @Override
        public void countedStart(long startNanos) {
            countStartNanos = startNanos;
            try {
                armed = replicas.arm(stalls.spec(horizonNanos), stalls.kind());
            } catch (AdminException e) {
                failure = e;
                return;
            }
            for (int r = 0; r < armed.size(); r++) {
                AdminClient agent = replicas.agents().get(r);
                String runId = armed.get(r).runId();
                feeds.add(StallFeed.of(agent, runId, clock, polling).showLive(live, Integer.toString(r), armed.get(r),
                        offsets.get(r).forAlignment()));
            }
        }

        /** Each agent's stalls by the end of the run, in order; throws when one answered with an error. */
        List<StallFeed.Fetched> finishFeeds() throws AdminException {
            List<StallFeed.Fetched> fetched = new ArrayList<>();
            try {
                for (StallFeed feed : feeds) {
                    fetched.add(feed.finish());
                }
            } finally {
                closeFeeds();
            }
            return fetched;
        }

        void closeFeeds() {
            feeds.forEach(StallFeed::close);
        }
    }
}
