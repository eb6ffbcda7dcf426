package io.loadsmith.examples.scoring;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/** Reads request bodies and writes answers; every failure to read becomes a 400 naming the field. */
final class JsonBodies {

    static final ObjectMapper MAPPER = new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    private JsonBodies() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The body as a JSON object. */
    static ObjectNode parseObject(byte[] body) {
        if (body.length == 0) {
            throw ApiException.badRequest("body must be a JSON object (got an empty body)");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw ApiException.badRequest("body is not JSON");
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("body must be a JSON object");
        }
        return (ObjectNode) node;
    }

    /** A required finite number. */
    static double number(JsonNode object, String field) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.badRequest("missing field " + field);
        }
        if (!value.isNumber() || !Double.isFinite(value.doubleValue())) {
            throw ApiException.badRequest(field + " must be a number (got " + value + ")");
        }
        return value.doubleValue();
    }

    /** A required integer in {@code min..max}. */
    static long integer(JsonNode object, String field, long min, long max) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.badRequest("missing field " + field);
        }
        if (!value.isNumber() || !value.canConvertToExactIntegral() || !value.canConvertToLong() || value.longValue() < min || value.longValue() > max) {
            throw ApiException.badRequest(field + " must be an integer in " + min + ".." + max + " (got " + value + ")");
        }
        return value.longValue();
    }
}
