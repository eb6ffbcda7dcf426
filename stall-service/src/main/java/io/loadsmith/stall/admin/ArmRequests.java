package io.loadsmith.stall.admin;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.loadsmith.stall.clock.Nanos;
import io.loadsmith.stall.plan.PlanException;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the body of {@code POST /arm} into a {@link StallPlan} and checks it against the caps. Every
 * refusal is an {@link AdminError} (400) whose message starts with the offending field as spelled on the
 * wire ({@code duration_ms}, {@code stalls[1].offset_ms}).
 */
final class ArmRequests {

    static final String SEEDED_FIELDS = "seed, mean_interval_ms, duration_ms, min_gap_ms, horizon_ms, kind, run_id";
    static final String EXPLICIT_FIELDS = "stalls, horizon_ms, kind, run_id";
    /** What a client-chosen run id may be: 1 to 64 letters, digits, {@code . _ : -}. */
    static final java.util.regex.Pattern RUN_ID = java.util.regex.Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    /** An arm body: its plan, and the run id the client chose (null: the controller makes one). */
    record ArmRequest(StallPlan plan, String runId) {
    }

    private final AdminConfig config;

    ArmRequests(AdminConfig config) {
        this.config = config;
    }

    /** Parses and checks an arm body. */
    StallPlan parse(byte[] body) throws AdminError {
        return parseRequest(body).plan();
    }

    /** Parses and checks an arm body, its optional {@code run_id} with it. */
    ArmRequest parseRequest(byte[] body) throws AdminError {
        Fields fields;
        // AdminJson's factory only now: its class loads jackson, which an agent keeps off its host's start
        try (JsonParser parser = AdminJson.FACTORY.createParser(body)) {
            fields = readFields(parser);
        } catch (JsonProcessingException e) {
            throw AdminError.badRequest("body: malformed JSON" + where(e.getLocation()) + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw AdminError.badRequest("body: cannot be read: " + e.getMessage());
        }
        StallPlan plan;
        try {
            plan = fields.stalls != null ? explicit(fields) : seeded(fields);
        } catch (PlanException e) {
            throw AdminError.badRequest(wireName(e.field()) + ": " + e.problem());
        }
        checkStalledShare(plan, fields);
        return new ArmRequest(plan, fields.runId);
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    private static String wireName(String planField) {
        return planField.equals("kind") || planField.equals("stalls") ? planField : planField + "_ms";
    }

    // ---- reading -----------------------------------------------------------------------------------

    private static final class Fields {
        Long seed;
        Double meanIntervalMs;
        Double durationMs;
        Double minGapMs;
        Double horizonMs;
        String kind;
        String runId;
        List<double[]> stalls; // {offset_ms, duration_ms}
        final Set<String> seen = new HashSet<>();
    }

    private static Fields readFields(JsonParser parser) throws IOException, AdminError {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw AdminError.badRequest("body: must be a JSON object such as {\"seed\": 7, \"mean_interval_ms\": 4000, "
                    + "\"duration_ms\": 100, \"min_gap_ms\": 500, \"horizon_ms\": 60000, \"kind\": \"block\"}");
        }
        Fields fields = new Fields();
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            if (!fields.seen.add(name)) {
                throw AdminError.badRequest(name + ": given twice");
            }
            parser.nextToken();
            switch (name) {
                case "seed" -> fields.seed = readLong(parser, name);
                case "mean_interval_ms" -> fields.meanIntervalMs = readMillis(parser, name);
                case "duration_ms" -> fields.durationMs = readMillis(parser, name);
                case "min_gap_ms" -> fields.minGapMs = readMillis(parser, name);
                case "horizon_ms" -> fields.horizonMs = readMillis(parser, name);
                case "kind" -> fields.kind = readString(parser, name);
                case "stalls" -> fields.stalls = readStalls(parser);
                case "run_id" -> fields.runId = readRunId(parser, name);
                default -> throw AdminError.badRequest(name + ": unknown field (a seeded plan takes " + SEEDED_FIELDS
                        + "; an explicit one takes " + EXPLICIT_FIELDS + ")");
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw AdminError.badRequest("body: malformed JSON object");
        }
        if (parser.nextToken() != null) {
            throw AdminError.badRequest("body: unexpected content after the JSON object" + where(parser.currentLocation()));
        }
        return fields;
    }

    private static List<double[]> readStalls(JsonParser parser) throws IOException, AdminError {
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw AdminError.badRequest("stalls: must be an array of {\"offset_ms\": ..., \"duration_ms\": ...} (got "
                    + describe(parser) + ")");
        }
        List<double[]> stalls = new ArrayList<>();
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            String at = "stalls[" + stalls.size() + "]";
            if (token != JsonToken.START_OBJECT) {
                throw AdminError.badRequest(at + ": must be an object {\"offset_ms\": ..., \"duration_ms\": ...} (got "
                        + describe(parser) + ")");
            }
            if (stalls.size() == StallPlan.MAX_STALLS) {
                throw AdminError.badRequest("stalls: must list at most " + StallPlan.MAX_STALLS + " stalls");
            }
            Double offsetMs = null;
            Double durationMs = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                switch (name) {
                    case "offset_ms" -> {
                        if (offsetMs != null) {
                            throw AdminError.badRequest(at + ".offset_ms: given twice");
                        }
                        offsetMs = readMillis(parser, at + ".offset_ms");
                    }
                    case "duration_ms" -> {
                        if (durationMs != null) {
                            throw AdminError.badRequest(at + ".duration_ms: given twice");
                        }
                        durationMs = readMillis(parser, at + ".duration_ms");
                    }
                    default -> throw AdminError.badRequest(at + "." + name + ": unknown field (a stall takes offset_ms, duration_ms)");
                }
            }
            if (offsetMs == null) {
                throw AdminError.badRequest(at + ".offset_ms: missing");
            }
            if (durationMs == null) {
                throw AdminError.badRequest(at + ".duration_ms: missing");
            }
            stalls.add(new double[] {offsetMs, durationMs});
        }
        return stalls;
    }

    private static long readLong(JsonParser parser, String name) throws IOException, AdminError {
        if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw AdminError.badRequest(name + ": must be an integer (got " + describe(parser) + ")");
        }
        if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw AdminError.badRequest(name + ": must fit in 64 bits (got " + parser.getText() + ")");
        }
        return parser.getLongValue();
    }

    private static double readMillis(JsonParser parser, String name) throws IOException, AdminError {
        JsonToken token = parser.currentToken();
        if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
            throw AdminError.badRequest(name + ": must be a number of milliseconds (got " + describe(parser) + ")");
        }
        double millis = parser.getDoubleValue();
        if (!Double.isFinite(millis)) {
            throw AdminError.badRequest(name + ": must be a finite number of milliseconds (got " + parser.getText() + ")");
        }
        return millis;
    }

    private static String readRunId(JsonParser parser, String name) throws IOException, AdminError {
        String value = readString(parser, name);
        if (!RUN_ID.matcher(value).matches()) {
            throw AdminError.badRequest(name + ": must be 1 to 64 letters, digits, '.', '_', ':' or '-' (got \""
                    + (value.length() > 80 ? value.substring(0, 80) + "..." : value) + "\")");
        }
        return value;
    }

    private static String readString(JsonParser parser, String name) throws IOException, AdminError {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
            throw AdminError.badRequest(name + ": must be a string (got " + describe(parser) + ")");
        }
        return parser.getText();
    }

    private static String describe(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "the string \"" + abbreviate(parser.getText()) + "\"";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "the number " + abbreviate(parser.getText());
            case VALUE_TRUE, VALUE_FALSE -> "the boolean " + parser.getText();
            case VALUE_NULL -> "null";
            default -> token.asString() == null ? token.name().toLowerCase(Locale.ROOT) : token.asString();
        };
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    // ---- building and capping ----------------------------------------------------------------------

    private StallKind kind(Fields fields) throws AdminError {
        if (fields.kind == null) {
            return StallKind.BLOCK;
        }
        try {
            return StallKind.fromWireName(fields.kind);
        } catch (PlanException e) {
            throw AdminError.badRequest("kind: must be \"block\" or \"spin\" (got \"" + abbreviate(fields.kind) + "\")");
        }
    }

    private StallPlan seeded(Fields fields) throws AdminError {
        require(fields.seed, "seed");
        require(fields.meanIntervalMs, "mean_interval_ms");
        require(fields.durationMs, "duration_ms");
        require(fields.minGapMs, "min_gap_ms");
        require(fields.horizonMs, "horizon_ms");
        StallKind kind = kind(fields);
        checkStall("duration_ms", fields.durationMs);
        if (Nanos.fromMillis(fields.horizonMs) > config.maxHorizon().toNanos()) {
            throw AdminError.badRequest("horizon_ms: " + fields.horizonMs + " ms is over the cap max_horizon = "
                    + millis(config.maxHorizon().toNanos()) + " ms (set by the service, not raisable through the API)");
        }
        SeededPlanSpec spec = new SeededPlanSpec(fields.seed, Nanos.fromMillis(fields.meanIntervalMs),
                Nanos.fromMillis(fields.durationMs), Nanos.fromMillis(fields.minGapMs), Nanos.fromMillis(fields.horizonMs));
        return StallPlan.seeded(spec, kind);
    }

    private StallPlan explicit(Fields fields) throws AdminError {
        for (String seededOnly : List.of("seed", "mean_interval_ms", "duration_ms", "min_gap_ms")) {
            if (fields.seen.contains(seededOnly)) {
                throw AdminError.badRequest(seededOnly + ": not allowed with stalls (an explicit plan takes "
                        + EXPLICIT_FIELDS + "; a seeded one takes " + SEEDED_FIELDS + ")");
            }
        }
        StallKind kind = kind(fields);
        List<PlannedStall> windows = new ArrayList<>();
        for (int i = 0; i < fields.stalls.size(); i++) {
            double[] stall = fields.stalls.get(i);
            checkStall("stalls[" + i + "].duration_ms", stall[1]);
            checkOffset(i, stall[0]);
            windows.add(new PlannedStall(i, Nanos.fromMillis(stall[0]), Nanos.fromMillis(stall[1])));
        }
        if (fields.horizonMs != null && Nanos.fromMillis(fields.horizonMs) > config.maxHorizon().toNanos()) {
            throw AdminError.badRequest("horizon_ms: " + fields.horizonMs + " ms is over the cap max_horizon = "
                    + millis(config.maxHorizon().toNanos()) + " ms (set by the service, not raisable through the API)");
        }
        if (windows.isEmpty() && fields.horizonMs == null) {
            throw AdminError.badRequest("horizon_ms: missing (a plan of no stalls, \"stalls\": [], observes for its horizon)");
        }
        // with no horizon_ms an explicit plan ends with its last stall
        StallPlan plan = fields.horizonMs == null ? StallPlan.explicit(windows, kind)
                : StallPlan.explicit(windows, kind, Nanos.fromMillis(fields.horizonMs));
        if (plan.horizonNanos() > config.maxHorizon().toNanos()) {
            throw AdminError.badRequest("stalls: the last stall ends " + millis(plan.horizonNanos())
                    + " ms after arming, over the cap max_horizon = " + millis(config.maxHorizon().toNanos())
                    + " ms (set by the service, not raisable through the API)");
        }
        return plan;
    }

    /**
     * Refuses a stall that starts beyond the horizon cap before the plan adds its offset to its duration
     * (an offset of 1e308 ms rounds to Long.MAX_VALUE nanoseconds, and the sum would wrap around).
     */
    private void checkOffset(int index, double offsetMs) throws AdminError {
        long capNanos = config.maxHorizon().toNanos();
        if (Nanos.fromMillis(offsetMs) > capNanos) {
            throw AdminError.badRequest("stalls[" + index + "].offset_ms: " + offsetMs + " ms is over the cap max_horizon = "
                    + millis(capNanos) + " ms (set by the service, not raisable through the API)");
        }
    }

    private void checkStall(String field, double durationMs) throws AdminError {
        if (Nanos.fromMillis(durationMs) > config.maxStall().toNanos()) {
            throw AdminError.badRequest(field + ": " + durationMs + " ms is over the cap max_stall = "
                    + millis(config.maxStall().toNanos()) + " ms (set by the service, not raisable through the API)");
        }
    }

    private void checkStalledShare(StallPlan plan, Fields fields) throws AdminError {
        double share = plan.stalledShare();
        if (share > config.maxStalledShare()) {
            String field = fields.stalls != null ? "stalls" : "duration_ms";
            throw AdminError.badRequest(field + ": the plan stalls " + percent(share) + " of its horizon, over the cap "
                    + "max_stalled_share = " + percent(config.maxStalledShare())
                    + " (set by the service, not raisable through the API)");
        }
    }

    private static void require(Object value, String field) throws AdminError {
        if (value == null) {
            throw AdminError.badRequest(field + ": missing (a seeded plan takes " + SEEDED_FIELDS
                    + "; an explicit one takes " + EXPLICIT_FIELDS + ")");
        }
    }

    private static String millis(long nanos) {
        double millis = Nanos.toMillis(nanos);
        return millis == Math.rint(millis) ? Long.toString((long) millis) : Double.toString(millis);
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100);
    }
}
