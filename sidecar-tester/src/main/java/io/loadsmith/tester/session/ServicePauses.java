package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.agentclient.ServerPause;
import io.loadsmith.tester.align.PauseAlignment;
import io.loadsmith.tester.align.PauseWindow;
import io.loadsmith.tester.align.WindowAlignment;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.RunResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

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
     * {@code result} with the run's {@code service_pauses} and {@code pause_summary}, or as it was when the
     * agent serves no pauses.
     *
     * @param runId           the agent's id of the armed run (written into the file)
     * @param aligning        the offset the stall windows were moved by
     * @param countStartNanos the counted run's start, on the tester's clock
     * @param durationNanos   the counted run's length
     * @param graceNanos      the grace after it
     */
    static RunResult attach(RunResult result, AdminClient admin, String runId, ClockOffset aligning,
                            long countStartNanos, long durationNanos, long graceNanos, Path runDir) throws IOException {
        AdminClient.PausePage served;
        try {
            served = admin.pauses();
        } catch (AdminException e) {
            LOG.info("no service pauses for this run: {}", e.status() == 404
                    ? "the agent at " + admin.base() + " serves no GET /pauses (an agent without pause observation)"
                    : e.getMessage());
            return result;
        }
        if (!served.observing()) {
            LOG.info("no service pauses for this run: the agent at {} observes none (observe=off)", admin.base());
            return result;
        }
        long keepToNanos = countStartNanos + durationNanos + graceNanos;
        List<ServerPause> kept = new ArrayList<>();
        List<PauseWindow> windows = new ArrayList<>();
        for (ServerPause pause : served.pauses()) {
            PauseWindow window = pause.onTesterClock(aligning);
            if (window.endNanos() > countStartNanos && window.startNanos() < keepToNanos) {
                kept.add(pause);
                windows.add(window);
            }
        }
        write(runDir.resolve(FILE_NAME), runId, kept);
        PauseAlignment aligned = PauseAlignment.alignLog(runDir.resolve(RequestLog.FILE_NAME), windows, durationNanos,
                null);
        return result.withServicePauses(rows(aligned), summary(aligned.summary()));
    }

    private static void write(Path file, String runId, List<ServerPause> pauses) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("run_id", runId);
        ArrayNode array = root.putArray("pauses");
        pauses.forEach(p -> array.add(p.json()));
        AtomicFiles.write(file, out -> JSON.writeValue(out, root));
    }

    /** A run's {@code service_pauses[]}. */
    static List<RunResult.PauseRow> rows(PauseAlignment aligned) {
        List<RunResult.PauseRow> rows = new ArrayList<>();
        for (WindowAlignment.WindowCount<PauseWindow> c : aligned.pauses()) {
            PauseWindow p = c.window();
            rows.add(new RunResult.PauseRow(p.index(), p.source(), p.label(), p.startNanos(), p.endNanos(),
                    p.timeToSafepointNanos(), c.sentDuring(), c.intendedDuring(), c.inFlightAtStart(), c.overlapping(),
                    c.met()));
        }
        return rows;
    }

    /** A run's {@code pause_summary}. */
    static RunResult.PauseSummary summary(PauseAlignment.Summary s) {
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

    /** The pause windows of a run's {@code service_pauses[]}, on the tester's clock. */
    static List<PauseWindow> windows(List<RunResult.PauseRow> rows) {
        return rows.stream().map(r -> new PauseWindow(r.index(), r.source(), r.label(), r.startNs(), r.endNs(),
                r.timeToSafepointNs())).toList();
    }
}
