package io.loadsmith.tester.align;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Assembles one {@code results.json} from several runs, each in its own sub-folder: the engine's run
 * objects (with the run's folder prefixed to {@code requests_log} and {@code hlog}), and for every run with
 * stalls its {@code stalls[]} and {@code stall_summary}, and {@code arm} (its line); the top-level {@code clock} and {@code alignment}
 * (one series per line: a run, or several runs of one tester merged). docs/alignment.md shows the shapes.
 */
public final class AlignedResults {

    private static final ObjectMapper MAPPER = ResultsWriter.mapper();

    private AlignedResults() {
    }

    /**
     * One run in the results.
     *
     * @param runDir  its folder, inside the results folder
     * @param outcome what it produced
     * @param line    the line it is drawn on in the alignment plot (runs on one line are merged)
     */
    public record Entry(Path runDir, StalledRun.Outcome outcome, String line) {
    }

    /** The results document of {@code entries}, written to {@code outDir}. */
    public static ObjectNode build(Path outDir, List<Entry> entries) {
        return build(outDir, entries, List.of());
    }

    /** The results document of {@code entries} with the SLO verdicts of {@code loadsmith run}. */
    public static ObjectNode build(Path outDir, List<Entry> entries, List<ResultsFile.SloResult> slos) {
        List<RunResult> results = new ArrayList<>();
        ClockOffset clock = ClockOffset.SAME_CLOCK;
        for (Entry entry : entries) {
            results.add(entry.outcome().result());
            if (entry.outcome().armed() != null && clock == ClockOffset.SAME_CLOCK) {
                clock = entry.outcome().offset();
            }
        }
        ObjectNode root = MAPPER.valueToTree(ResultsFile.of(results).withSlos(slos)
                .withClock(new ResultsFile.ClockInfo(clock.offsetNanos(), clock.uncertaintyNanos())));
        ArrayNode runs = (ArrayNode) root.get("runs");
        Map<String, List<RunAlignment>> lines = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            ObjectNode run = (ObjectNode) runs.get(i);
            String folder = outDir.toAbsolutePath().normalize().relativize(entry.runDir().toAbsolutePath().normalize())
                    .toString().replace('\\', '/');
            for (String file : new String[] {"requests_log", "hlog"}) {
                if (run.path(file).isTextual() && !folder.isEmpty()) {
                    run.put(file, folder + "/" + run.get(file).asText());
                }
            }
            run.put("dir", folder);
            run.put("arm", entry.line());
            StalledRun.Outcome outcome = entry.outcome();
            if (outcome.alignment() != null) {
                AlignmentJson.writeRun(run, outcome.alignment(), outcome.missing());
                run.put("clock_offset_ns", outcome.offset().offsetNanos());
                run.put("clock_uncertainty_ns", outcome.offset().uncertaintyNanos());
                run.put("clock_offset_used_ns", outcome.offset().forAlignment().offsetNanos());
                run.put("run_id", outcome.armed().runId());
                lines.computeIfAbsent(entry.line(), k -> new ArrayList<>()).add(outcome.alignment());
            } else {
                run.putArray("stalls");
            }
        }
        List<AlignmentJson.NamedRun> named = new ArrayList<>();
        for (Map.Entry<String, List<RunAlignment>> line : lines.entrySet()) {
            RunAlignment merged = line.getValue().size() == 1 ? line.getValue().get(0)
                    : RunAlignment.merge(line.getValue(), StallAlignment.DEFAULT_SCATTER_CAP);
            named.add(new AlignmentJson.NamedRun(line.getKey(), merged));
        }
        if (!named.isEmpty()) {
            root.set("alignment", AlignmentJson.alignment(named));
        }
        return root;
    }

    /** Writes a results document to {@code dir/results.json} atomically. */
    public static Path write(Path dir, ObjectNode root) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(ResultsWriter.FILE_NAME);
        Path temp = Files.createTempFile(dir, ".results-", ".json.tmp");
        try {
            MAPPER.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), root);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
        return file;
    }
}
