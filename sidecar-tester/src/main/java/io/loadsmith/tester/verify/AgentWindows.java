package io.loadsmith.tester.verify;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's windows as a run's folder keeps them: {@code agent-stalls.json} (the agent's
 * {@code GET /stalls?run_id=} answer, or each agent's under {@code replicas} for a run on several) and {@code agent-pauses.json} ({@code {"run_id", "pauses": [...]}}, or each agent's under {@code replicas}, each
 * as {@code GET /pauses} serves it). Read as JSON trees; times on the agent's clock, moved onto the tester's by
 * subtracting the offset the run used.
 */
final class AgentWindows {

    static final String STALLS_FILE = "agent-stalls.json";
    static final String PAUSES_FILE = "agent-pauses.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private AgentWindows() {
    }

    /** Reads a JSON file whole; a missing or malformed file is a {@link VerifyException} naming it. */
    static JsonNode readJson(Path file, String why) {
        try {
            return JSON.readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new VerifyException(file + ": no such file (" + why + ")");
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new VerifyException(file + where + ": not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new VerifyException(file + ": cannot be read: " + e, e);
        }
    }

    /**
     * The windows listed under {@code field} ({@code stalls} in {@code agent-stalls.json}, {@code pauses} in
     * {@code agent-pauses.json}) of run {@code run}: one agent's list (windows naming another run left out),
     * moved by the run's {@code clock_offset_used_ns}; or with several agents
     * {@code {"replicas": [{"replica": URL, "run_id": ..., FIELD: [...]}]}}, each replica's windows moved by its
     * own {@code clock_offset_used_ns} from the run's {@code replicas[]} and kept under its URL.
     */
    static List<Window> read(Path file, JsonNode run, String field, String why) {
        JsonNode root = readJson(file, why);
        JsonNode replicas = root == null ? null : root.get("replicas");
        if (replicas == null) {
            return windows(file, root, field, "", run.path("run_id").asText(null),
                    run.path("clock_offset_used_ns").asLong(0), null);
        }
        if (!replicas.isArray()) {
            throw new VerifyException(file + ": replicas must be an array (got " + kind(replicas) + ")");
        }
        List<Window> windows = new ArrayList<>();
        for (int i = 0; i < replicas.size(); i++) {
            String at = "replicas[" + i + "]";
            JsonNode one = replicas.get(i);
            String address = one.path("replica").asText(null);
            if (address == null) {
                throw new VerifyException(file + ": " + at + ".replica is missing");
            }
            JsonNode used = usedReplica(run, address);
            if (used == null) {
                throw new VerifyException(file + ": " + at + ".replica " + address
                        + " is not among the run's replicas[] in results.json");
            }
            windows.addAll(windows(file, one, field, at + ".", used.path("run_id").asText(null),
                    used.path("clock_offset_used_ns").asLong(0), address));
        }
        return windows;
    }

    /** The entry of the run's {@code replicas[]} whose {@code address} is {@code address}; null if none. */
    static JsonNode usedReplica(JsonNode run, String address) {
        for (JsonNode used : run.path("replicas")) {
            if (address.equals(used.path("address").asText(null))) {
                return used;
            }
        }
        return null;
    }

    private static List<Window> windows(Path file, JsonNode root, String field, String prefix, String runId,
                                        long offsetNanos, String replica) {
        JsonNode list = root == null ? null : root.get(field);
        if (list == null || !list.isArray()) {
            throw new VerifyException(file + ": " + prefix + field + " must be an array (got " + kind(list) + ")");
        }
        List<Window> windows = new ArrayList<>();
        for (int k = 0; k < list.size(); k++) {
            JsonNode w = list.get(k);
            String at = prefix + field + "[" + k + "]";
            if (!w.isObject()) {
                throw new VerifyException(file + ": " + at + " must be an object (got " + kind(w) + ")");
            }
            String itsRun = w.path("run_id").asText(null);
            if (runId != null && itsRun != null && !runId.equals(itsRun)) {
                continue;
            }
            long start = whole(file, w, at, "start_ns");
            long end = whole(file, w, at, "end_ns");
            windows.add(new Window(whole(file, w, at, "index"), start - offsetNanos, end - offsetNanos, w, replica));
        }
        return windows;
    }

    private static long whole(Path file, JsonNode object, String at, String field) {
        JsonNode value = object.get(field);
        if (value == null) {
            throw new VerifyException(file + ": " + at + "." + field + " is missing");
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new VerifyException(file + ": " + at + "." + field + " must be a whole number (got " + value + ")");
        }
        return value.longValue();
    }

    private static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return node.isObject() ? "an object" : node.isArray() ? "an array" : node.toString();
    }
}
