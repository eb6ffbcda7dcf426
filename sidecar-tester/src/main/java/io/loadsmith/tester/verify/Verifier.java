package io.loadsmith.tester.verify;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.result.ResultsException;
import io.loadsmith.tester.result.ResultsReader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Recomputes the figures of a results folder from its raw files, with arithmetic of its own: the counts,
 * latencies and lateness of each run from its {@code requests.bin} (cross-checked against the totals of its
 * {@code latency.hlog}), and its per-stall and per-pause rows and summaries from {@code requests.bin}, the
 * agent's windows ({@code agent-stalls.json}, {@code agent-pauses.json}) and {@code clock_offset_used_ns}.
 * It shares no code with what wrote the figures: only the request log's reader, HdrHistogram, and
 * {@link ResultsReader} to refuse a results.json that is not v1. The definitions are docs/results-json.md's
 * and docs/alignment.md's; docs/results.md ("Recomputing the figures") lists what is not checked.
 *
 * <pre>{@code
 * Verification v = Verifier.verify(Path.of("results/demo-20261129-174700"));
 * v.disagreements().forEach(System.out::println);
 * }</pre>
 */
public final class Verifier {

    private Verifier() {
    }

    /**
     * Checks every run of the results in {@code folder}, run by run.
     *
     * @throws VerifyException when results.json or a raw file is missing or cannot be read (naming it)
     */
    public static Verification verify(Path folder) {
        Path results = folder.resolve("results.json");
        if (!Files.isRegularFile(results)) {
            throw new VerifyException(results + ": no such file (a results folder holds results.json)");
        }
        try {
            ResultsReader.read(results);
        } catch (ResultsException e) {
            throw new VerifyException(e.getMessage(), e);
        }
        JsonNode runs = AgentWindows.readJson(results, "a results folder holds results.json").path("runs");
        List<Row> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            RunVerifier.verify(folder, i, runs.get(i), rows, notes);
        }
        return new Verification(rows, notes);
    }
}
