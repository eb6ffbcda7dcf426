package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.util.Locale;

/** Shared printing of admin answers. */
final class AdminCommands {

    /** Indented JSON, for printing answers and writing the CLI's small files. */
    static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AdminCommands() {
    }

    static void printJson(PrintWriter out, JsonNode node) {
        try {
            out.println(PRETTY.writeValueAsString(node));
        } catch (Exception e) {
            out.println(node);
        }
    }

    /** A table of stall windows: index, planned start, start, end, length, held, kind. */
    static void printStalls(PrintWriter out, JsonNode stalls) {
        if (stalls == null || !stalls.isArray() || stalls.isEmpty()) {
            out.println("  (no stalls)");
            return;
        }
        out.printf(Locale.ROOT, "  %5s  %20s  %20s  %20s  %10s  %6s  %s%n", "index", "planned_start_ns", "start_ns",
                "end_ns", "length_ms", "held", "kind");
        for (JsonNode s : stalls) {
            long start = s.path("start_ns").asLong(s.path("offset_ns").asLong(-1));
            long end = s.path("end_ns").asLong(-1);
            String length = s.has("duration_ns") ? String.format(Locale.ROOT, "%.3f", s.get("duration_ns").asLong() / 1e6)
                    : end >= 0 && start >= 0 ? String.format(Locale.ROOT, "%.3f", (end - start) / 1e6) : "-";
            out.printf(Locale.ROOT, "  %5s  %20s  %20s  %20s  %10s  %6s  %s%n", s.path("index").asText("-"),
                    s.path("planned_start_ns").asText("-"), s.has("start_ns") ? s.get("start_ns").asText()
                            : s.path("offset_ns").asText("-") + " (offset)",
                    s.path("end_ns").asText("-"), length, s.path("held").asText("-"), s.path("kind").asText("-"));
        }
    }
}
