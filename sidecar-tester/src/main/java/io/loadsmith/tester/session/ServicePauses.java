package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.tester.agentclient.AdminApi;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.Replicas;
import io.loadsmith.tester.agentclient.ServerPause;
import io.loadsmith.tester.align.PauseAlignment;
import io.loadsmith.tester.align.AlignedPause;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.align.WindowAlignment;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.ServedBy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * The pauses the agent's observer saw during a run with stalls (docs/pauses.md): fetched from
 * {@code GET /pauses} after the grace, those whose window overlaps the counted run or its grace kept,
 * written as they were served to {@code agent-pauses.json} in the run's folder, moved to the tester's clock
 * by the offset the stalls are moved by, and counted like the stalls ({@link PauseAlignment}). An agent
 * that serves no pauses (an older agent, {@code observe=off}, an error) gives the run none: one line is
 * logged, the run goes on.
 */
final class ServicePauses {

    /** The file, in the run's folder. */
    static final String FILE_NAME = "agent-pauses.json";

    private static final Logger LOG = LoggerFactory.getLogger(ServicePauses.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ServicePauses() {
    }

    /**
     * {@code result} with the run's {@code service_pauses} and {@code pause_summary}, or as it was when no
     * agent serves pauses. Each agent's pauses are moved to the tester's clock by the offset its stalls are
     * moved by; with several agents each pause is its replica's, and a request counts only for the pauses of
     * the replica that served it ({@code replicaOf}, as for the stalls), one that does not say against every
     * replica's. An agent lost during the run, or one that serves no pauses, gives none. With one agent
     * {@code agent-pauses.json} is its {@code {"run_id": ..., "pauses": [...]}}; with several it is
     * {@code {"replicas": [{"replica": URL, "run_id": ..., "pauses": [...]}]}}.
     *
     * @param replicas        what each agent did in the run, in order
     * @param agents          the agents, in the same order
     * @param countStartNanos the counted run's start, on the tester's clock
     * @param durationNanos   the counted run's length
     * @param graceNanos      the grace after it
     */
    static RunResult attach(RunResult result, List<Replicas.Replica> replicas, List<AdminApi> agents,
                            long countStartNanos, long durationNanos, long graceNanos, Path runDir,
                            IntUnaryOperator replicaOf) throws IOException {
        boolean several = replicas.size() > 1;
        long keepToNanos = countStartNanos + durationNanos + graceNanos;
        ObjectNode root = JSON.createObjectNode();
        ArrayNode pages = root.putArray("replicas");
        List<AlignedPause> windows = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (int r = 0; r < replicas.size(); r++) {
            Replicas.Replica replica = replicas.get(r);
            addresses.add(replica.address());
            Kept kept = replica.lost() != null ? null : kept(agents.get(r), replica.offset().forAlignment(),
                    several ? r : StallWindow.NO_REPLICA, countStartNanos, keepToNanos);
            if (kept != null) {
                ObjectNode page = page(replica.armed().runId(), kept.served());
                pages.add(several ? JSON.createObjectNode().put("replica", replica.address()).setAll(page) : page);
                windows.addAll(kept.windows());
            }
        }
        if (pages.isEmpty()) {
            return result;
        }
        write(runDir.resolve(FILE_NAME), several ? root : (ObjectNode) pages.get(0));
        PauseAlignment aligned = PauseAlignment.alignLog(runDir.resolve(RequestLog.FILE_NAME), windows, durationNanos,
                null, replicaOf);
        return result.withServicePauses(rows(aligned, several ? addresses : List.of()), summary(aligned.summary()));
    }

    /** One agent's pauses that overlap the counted run or its grace: as served, and on the tester's clock. */
    private record Kept(List<ServerPause> served, List<AlignedPause> windows) {
    }

    /** What {@code admin} served of the run's span, its windows of replica {@code replica}; null if it serves none. */
    private static Kept kept(AdminApi admin, ClockOffset aligning, int replica, long countStartNanos,
                             long keepToNanos) {
        AdminClient.PausePage served;
        try {
            served = admin.pauses();
        } catch (AdminException e) {
            LOG.info("no service pauses for this run: {}", e.status() == 404
                    ? "the agent at " + admin.base() + " serves no GET /pauses (an agent without pause observation)"
                    : e.getMessage());
            return null;
        }
        if (!served.observing()) {
            LOG.info("no service pauses for this run: the agent at {} observes none (observe=off)", admin.base());
            return null;
        }
        List<ServerPause> kept = new ArrayList<>();
        List<AlignedPause> windows = new ArrayList<>();
        for (ServerPause pause : served.pauses()) {
            AlignedPause window = pause.onTesterClock(aligning).withReplica(replica);
            if (window.endNanos() > countStartNanos && window.startNanos() < keepToNanos) {
                kept.add(pause);
                windows.add(window);
            }
        }
        return new Kept(kept, windows);
    }

    private static ObjectNode page(String runId, List<ServerPause> pauses) {
        ObjectNode page = JSON.createObjectNode();
        page.put("run_id", runId);
        ArrayNode array = page.putArray("pauses");
        pauses.forEach(p -> array.add(p.json()));
        return page;
    }

    private static void write(Path file, ObjectNode root) throws IOException {
        AtomicFiles.write(file, out -> JSON.writeValue(out, root));
    }

    /** A run's {@code service_pauses[]}; {@code addresses}: the replicas' admin URLs, in order (none: one agent). */
    static List<RunResult.PauseRow> rows(PauseAlignment aligned, List<String> addresses) {
        List<RunResult.PauseRow> rows = new ArrayList<>();
        for (WindowAlignment.WindowCount<AlignedPause> c : aligned.pauses()) {
            AlignedPause p = c.window();
            rows.add(new RunResult.PauseRow(p.index(), p.source(), p.label(), p.startNanos(), p.endNanos(),
                    p.timeToSafepointNanos(), c.sentDuring(), c.intendedDuring(), c.inFlightAtStart(), c.overlapping(),
                    c.met(), p.replica() < 0 ? null : addresses.get(p.replica())));
        }
        return rows;
    }

    /** A run's {@code pause_summary}. */
    static RunResult.PauseSummary summary(PauseAlignment.PauseCounts s) {
        return new RunResult.PauseSummary(s.pauses(), s.pausesMet(), s.sentDuringTotal(), s.overlappingRequests(),
                Math.round(s.overlappingShare() * 1e6) / 1e6, AlignedResults.ms(s.pausedNanos()));
    }

    /**
     * The console's line for a run's service pauses met, e.g. {@code service pauses: 3 (safepoint 3, 41 ms in
     * all); 12 sends met one}; null when it met none (or they were not observed).
     */
    static String consoleLine(RunResult result) {
        RunResult.PauseSummary summary = result.pauseSummary();
        if (summary == null || summary.pausesMet() == 0) {
            return null;
        }
        Map<String, Long> bySource = new TreeMap<>();
        for (RunResult.PauseRow row : result.servicePauses()) {
            if (row.met()) {
                bySource.merge(row.source(), 1L, Long::sum);
            }
        }
        StringBuilder sources = new StringBuilder();
        bySource.forEach((source, count) -> sources.append(source).append(' ').append(count).append(", "));
        return String.format(Locale.ROOT, "service pauses: %d (%s%s ms in all); %d sends met one",
                summary.pausesMet(), sources, Demo.fmt(summary.pausedMs(), summary.pausedMs() < 10 ? 1 : 0),
                summary.overlapping());
    }

    /**
     * The pause windows of {@code rows}, rows of {@code result}'s {@code service_pauses[]}, on the tester's
     * clock, each with its replica's place in the run's {@code replicas[]}.
     */
    static List<AlignedPause> windows(RunResult result, List<RunResult.PauseRow> rows) {
        List<String> addresses = addresses(result);
        return rows.stream().map(r -> new AlignedPause(r.index(), r.source(), r.label(), r.startNs(), r.endNs(),
                r.timeToSafepointNs(), r.replica() == null ? StallWindow.NO_REPLICA : addresses.indexOf(r.replica())))
                .toList();
    }

    /**
     * The replica (place in {@code result}'s {@code replicas[]}) that served a request, by its served by,
     * as the run counted it; {@link StallWindow#NO_REPLICA} for one it does not know.
     */
    static IntUnaryOperator replicaOf(RunResult result) {
        List<RunResult.ReplicaUsed> used = result.replicas() == null ? List.of() : result.replicas();
        return servedBy -> {
            for (int r = 0; servedBy != ServedBy.NONE && r < used.size(); r++) {
                if (used.get(r).servedBy() == servedBy) {
                    return r;
                }
            }
            return StallWindow.NO_REPLICA;
        };
    }

    private static List<String> addresses(RunResult result) {
        return result.replicas() == null ? List.of()
                : result.replicas().stream().map(RunResult.ReplicaUsed::address).toList();
    }
}
