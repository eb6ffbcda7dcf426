package io.loadsmith.tester.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code loadsmith verify} on a results.json a test left behind (called by {@code ResultsJsonCheck} for every
 * one): every figure must agree with the raw files. Only folders whose every run has the raw files it names
 * ({@code requests_log} and {@code hlog}) are verified: a results.json made by hand as a fixture (a report or
 * reader test, a schema test), or a folder a test damaged on purpose, has none to recompute from.
 */
public final class VerifyCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private VerifyCheck() {
    }

    /** What disagrees in {@code results}'s folder, or why it cannot be verified; empty when all agrees or it has no raw files. */
    public static List<String> problems(Path results) throws IOException {
        Path folder = results.getParent();
        if (!hasRawFiles(folder, JSON.readTree(results.toFile()))) {
            return List.of();
        }
        Verification verification;
        try {
            verification = Verifier.verify(folder);
        } catch (VerifyException e) {
            return List.of("loadsmith verify: " + e.getMessage());
        }
        if (verification.agrees()) {
            return List.of();
        }
        StringWriter table = new StringWriter();
        verification.disagreements().forEach(r -> table.append(String.format("%n    %s %s: claimed %s, recomputed %s",
                r.run(), r.figure(), r.claimed(), r.recomputed())));
        return List.of("loadsmith verify: " + verification.disagreements().size() + " figures disagree:" + table);
    }

    private static boolean hasRawFiles(Path folder, JsonNode results) {
        JsonNode runs = results.path("runs");
        if (runs.isEmpty()) {
            return false;
        }
        for (JsonNode run : runs) {
            for (String field : List.of("requests_log", "hlog")) {
                String name = run.path(field).asText(null);
                if (name == null || !Files.isRegularFile(folder.resolve(name))) {
                    return false;
                }
            }
        }
        return true;
    }
}
