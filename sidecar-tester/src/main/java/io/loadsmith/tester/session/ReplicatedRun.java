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
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.ServedBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A {@link StalledRun} against several replicas of a service, each with its agent ({@link Replicas}):
 * probes every agent's clock before the run (one that cannot be reached fails the run before it starts,
 * naming it), arms them all at the counted start with the same seeded plan (each gives its run its own id),
 * fetches each one's stalls after the grace, disarms them all, and aligns the run's requests with every
 * replica's windows, each moved to the tester's clock through its own offset. A window keeps its replica
 * ({@link StallWindow#replica()}, the agent's place in the list): a request that names the replica that
 * served it counts only for that replica's windows, one that does not counts against every replica's.
 */
final class ReplicatedRun {

    private ReplicatedRun() {
    }

    /** The run, as {@link StalledRun} runs it with one agent; {@code stalls} has several. */
    static StalledRun.Outcome run(TesterSpec tester, List<Lane> lanes, RequestSource source, Path runDir,
                                  AgentStalls stalls, AlignedBins bins, RunControl control, Executor writer,
                                  TesterPauses self) throws IOException {
        Replicas replicas = Replicas.of(stalls.replicas());
        List<ClockOffset> offsets = replicas.probe(lanes.get(0).scheduler(), ClockProbe.DEFAULT_PROBES);
        List<String> ids = replicas.replicaIds();
        int[] servedBy = new int[ids.size()];
        for (int r = 0; r < ids.size(); r++) {
            servedBy[r] = ids.get(r) == null ? ServedBy.NONE : ServedBy.number(ids.get(r));
        }
        Arming arming = new Arming(replicas, stalls, tester.durationNanos());
        RunResult result = LoadTest.run(tester.stall(true), lanes, source, runDir,
                self == null ? arming : self.around(arming), control, writer);
        if (arming.failure != null) {
            disarmQuietly(replicas);
            throw arming.failure;
        }
        List<List<ServerStall>> recorded;
        ResultsFile.Versions versions;
        try {
            recorded = replicas.stalls(arming.armed);
            versions = StalledRun.withAgent(stalls.admin());
        } finally {
            replicas.disarmAll();
        }
        long countEndNanos = arming.countStartNanos + tester.durationNanos();
        List<StallWindow> windows = new ArrayList<>();
        List<ServerStall> every = new ArrayList<>();
        List<Replicas.Replica> done = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int r = 0; r < recorded.size(); r++) {
            ClockOffset aligning = offsets.get(r).forAlignment();
            List<Integer> indices = new ArrayList<>();
            for (ServerStall stall : recorded.get(r)) {
                windows.add(stall.onTesterClock(aligning, r));
                indices.add(stall.index());
            }
            AdminClient.Armed armed = arming.armed.get(r);
            List<Integer> missing = MissingStalls.missing(armed.stalls(),
                    aligning.toTesterNanos(armed.armedAtNanos()), countEndNanos, indices);
            String address = replicas.agents().get(r).base().toString();
            String warning = MissingStalls.warning(missing);
            if (warning != null) {
                warnings.add("replica " + address + ": " + warning);
            }
            every.addAll(recorded.get(r));
            done.add(new Replicas.Replica(address, ids.get(r), offsets.get(r), armed, recorded.get(r), missing,
                    servedBy[r], 0));
        }
        keepAgentStalls(done, runDir);
        Path log = runDir.resolve(RequestLog.FILE_NAME);
        RunAlignment alignment = StallAlignment.alignLog(log, windows, tester.durationNanos(), bins,
                StallAlignment.DEFAULT_SCATTER_CAP, tester.seed(), number -> replicaOf(servedBy, number));
        done = withServed(done, log);
        if (!warnings.isEmpty()) {
            result = result.withWarnings(warnings);
        }
        Replicas.Replica first = done.get(0);
        return new StalledRun.Outcome(result, first.offset(), first.armed(), every, alignment, first.missing(),
                versions, done);
    }

    /**
     * Keeps the run's stalls of every agent in {@value StalledRun#AGENT_STALLS_FILE}, as {@code run} keeps
     * them: {@code {"replicas": [{"replica": URL, "run_id": ..., "stalls": [...]}]}}.
     */
    private static void keepAgentStalls(List<Replicas.Replica> replicas, Path runDir) throws IOException {
        ObjectNode all = JsonNodeFactory.instance.objectNode();
        ArrayNode each = all.putArray("replicas");
        for (Replicas.Replica r : replicas) {
            each.addObject().put("replica", r.address()).setAll(StalledRun.stallsPage(r.armed().runId(), r.stalls()));
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
                    r.servedBy(), served[k]));
        }
        return counted;
    }

    /** The {@code replicas[]} of a run's result: each agent's address, run id, clock offset and stalls. */
    static List<RunResult.ReplicaUsed> used(List<Replicas.Replica> replicas) {
        List<RunResult.ReplicaUsed> used = new ArrayList<>();
        for (Replicas.Replica r : replicas) {
            used.add(new RunResult.ReplicaUsed(r.address(), r.replicaId(), r.armed().runId(), r.offset().offsetNanos(),
                    r.offset().uncertaintyNanos(), r.offset().forAlignment().offsetNanos(), r.stalls().size(),
                    r.missing(), r.servedBy(), r.requestsServed()));
        }
        return used;
    }

    private static void disarmQuietly(Replicas replicas) {
        try {
            replicas.disarmAll();
        } catch (AdminException e) {
            // the arming failure is the one to report
        }
    }

    /** Arms every agent when the engine decides the counted start; remembers a failure for the caller. */
    private static final class Arming implements RunListener {
        private final Replicas replicas;
        private final AgentStalls stalls;
        private final long horizonNanos;
        List<AdminClient.Armed> armed;
        AdminException failure;
        long countStartNanos;

        Arming(Replicas replicas, AgentStalls stalls, long horizonNanos) {
            this.replicas = replicas;
            this.stalls = stalls;
            this.horizonNanos = horizonNanos;
        }

        @Override
        public void countedStart(long startNanos) {
            countStartNanos = startNanos;
            try {
                armed = replicas.arm(stalls.spec(horizonNanos), stalls.kind());
            } catch (AdminException e) {
                failure = e;
            }
        }
    }
}
