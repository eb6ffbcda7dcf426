package io.loadsmith.stall.admin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.loadsmith.stall.control.StallRecord;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.observe.PauseSource;
import io.loadsmith.stall.observe.PauseWindow;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Map;

/** The JSON of the admin API's answers: one object and a newline, and the objects that several of them list. */
final class AdminJson {

    /** Thread-safe; shared by every server of the JVM. */
    static final JsonFactory FACTORY = new JsonFactory();
    static final String TYPE = "application/json";

    /** The fields of one answer object, written between its braces. */
    interface Fields {
        void write(JsonGenerator out) throws IOException;
    }

    private AdminJson() {
    }

    static byte[] bytes(Fields fields) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (JsonGenerator out = FACTORY.createGenerator(bytes)) {
            out.writeStartObject();
            fields.write(out);
            out.writeEndObject();
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    static Fields error(String message) {
        return out -> out.writeStringField("error", message);
    }

    static void writeStall(JsonGenerator out, StallRecord stall) throws IOException {
        out.writeStartObject();
        out.writeNumberField("index", stall.index());
        out.writeStringField("run_id", stall.runId());
        out.writeNumberField("planned_start_ns", stall.plannedStartNanos());
        out.writeNumberField("start_ns", stall.startNanos());
        out.writeNumberField("end_ns", stall.endNanos());
        out.writeNumberField("held", stall.held());
        out.writeStringField("kind", stall.kind().wireName());
        if (stall.kind() == StallKind.FREEZE) {
            out.writeNumberField("start_uncertainty_ns", stall.startUncertaintyNanos());
            out.writeNumberField("end_uncertainty_ns", stall.endUncertaintyNanos());
        }
        out.writeEndObject();
    }

    static void writePause(JsonGenerator out, PauseWindow pause) throws IOException {
        out.writeStartObject();
        out.writeNumberField("index", pause.index());
        out.writeStringField("source", pause.source().wireName());
        out.writeStringField("label", pause.label());
        out.writeNumberField("start_ns", pause.startNanos());
        out.writeNumberField("end_ns", pause.endNanos());
        if (pause.source() == PauseSource.SAFEPOINT) {
            writeNullableString(out, "operation", pause.operation());
            writeNullableString(out, "gc", pause.gc());
            out.writeNumberField("time_to_safepoint_ns", pause.timeToSafepointNanos());
        }
        out.writeEndObject();
    }

    static void writeNullableString(JsonGenerator out, String name, String value) throws IOException {
        if (value == null) {
            out.writeNullField(name);
        } else {
            out.writeStringField(name, value);
        }
    }

    /**
     * Any value a service's health details may hold: maps, iterables and arrays as JSON, numbers that are
     * not finite and anything unknown as strings, 16 levels deep at most (deeper ones as their string).
     */
    static void writeValue(JsonGenerator out, Object value, int depth) throws IOException {
        if (depth > 16) {
            out.writeString(String.valueOf(value));
        } else if (value == null) {
            out.writeNull();
        } else if (value instanceof String text) {
            out.writeString(text);
        } else if (value instanceof Boolean flag) {
            out.writeBoolean(flag);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            out.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            if (Double.isFinite(number)) {
                out.writeNumber(number);
            } else {
                out.writeString(Double.toString(number));
            }
        } else if (value instanceof Number number) {
            out.writeNumber(number.toString());
        } else if (value instanceof Map<?, ?> map) {
            out.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.writeFieldName(String.valueOf(entry.getKey()));
                writeValue(out, entry.getValue(), depth + 1);
            }
            out.writeEndObject();
        } else if (value instanceof Iterable<?> items) {
            out.writeStartArray();
            for (Object item : items) {
                writeValue(out, item, depth + 1);
            }
            out.writeEndArray();
        } else if (value.getClass().isArray()) {
            out.writeStartArray();
            for (int i = 0; i < Array.getLength(value); i++) {
                writeValue(out, Array.get(value, i), depth + 1);
            }
            out.writeEndArray();
        } else {
            out.writeString(value.toString());
        }
    }
}
