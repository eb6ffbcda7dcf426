package io.loadsmith.tester.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Copies a fixture results.json from src/test/resources/report/NAME into a fresh run directory. */
final class Fixtures {
    static final String YOUNG = "G1: Pause Young (Normal) (G1 Evacuation Pause)";
    /** The counted start {@link #replayed} gives its closed run: its first stall begins 1000.207709 ms after it. */
    static final long REPLAYED_START_NS = 5_003_158_000_000L;

    private Fixtures() {}

    /**
     * {@code closed-paced-open} (in {@code parent/replayed}) with its closed run as if each of its seven 300 ms
     * stalls replayed a pause of a profile from 10 s on (stall 2 a full collection, the others young ones): the
     * plan put each at the whole millisecond before the agent's start, 0.5 ms shorter than the agent made it.
     */
    static Path replayed(Path parent) throws IOException {
        Path dir = runDir("closed-paced-open", parent.resolve("replayed"));
        ObjectMapper json = new ObjectMapper();
        ObjectNode results = (ObjectNode) json.readTree(dir.resolve("results.json").toFile());
        ObjectNode run = (ObjectNode) results.at("/runs/0");
        run.put("start_ns", REPLAYED_START_NS);
        for (JsonNode row : run.get("stalls")) {
            double plannedMs = Math.floor((row.get("start_ns").asLong() - REPLAYED_START_NS) / 1e6);
            String label = row.get("index").asInt() == 2 ? "G1: Pause Full (System.gc())" : YOUNG;
            ((ObjectNode) row).putObject("replayed").put("source", "gc").put("label", label).put("offset_ms", 10_000 + plannedMs)
                    .put("duration_ms", 299.5).put("planned_offset_ms", plannedMs).put("planned_duration_ms", 299.5);
        }
        json.writeValue(dir.resolve("results.json").toFile(), results);
        return dir;
    }

    static Path runDir(String name, Path parent) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        try (InputStream in = Fixtures.class.getResourceAsStream("/report/" + name + "/results.json")) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            Files.copy(in, dir.resolve("results.json"));
        }
        return dir;
    }
}
