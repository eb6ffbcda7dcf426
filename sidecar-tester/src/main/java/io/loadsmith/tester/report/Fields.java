package io.loadsmith.tester.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Typed, optional reads of a results.json tree; a wrong type fails naming the file and the field path. */
final class Fields {
    private final Path file;

    Fields(Path file) {
        this.file = file;
    }

    ReportException error(String fieldPath, String problem) {
        return new ReportException(file + ": " + fieldPath + " " + problem);
    }

    /** The child, or null when absent or JSON null. */
    static JsonNode child(JsonNode node, String name) {
        if (node == null || !node.isObject()) {
            return null;
        }
        JsonNode c = node.get(name);
        return c == null || c.isNull() ? null : c;
    }

    JsonNode object(JsonNode node, String name, String path) {
        JsonNode c = child(node, name);
        if (c != null && !c.isObject()) {
            throw error(path + "." + name, "must be an object (got " + describe(c) + ")");
        }
        return c;
    }

    List<JsonNode> array(JsonNode node, String name, String path) {
        JsonNode c = child(node, name);
        if (c == null) {
            return List.of();
        }
        if (!c.isArray()) {
            throw error(path + "." + name, "must be an array (got " + describe(c) + ")");
        }
        List<JsonNode> out = new ArrayList<>();
        c.forEach(out::add);
        return out;
    }

    Double number(JsonNode node, String name, String path) {
        JsonNode c = child(node, name);
        if (c == null) {
            return null;
        }
        if (!c.isNumber()) {
            throw error(path + "." + name, "must be a number (got " + describe(c) + ")");
        }
        return c.doubleValue();
    }

    Long integer(JsonNode node, String name, String path) {
        JsonNode c = child(node, name);
        if (c == null) {
            return null;
        }
        if (!c.isIntegralNumber()) {
            if (c.isNumber() && c.doubleValue() == Math.rint(c.doubleValue())) {
                return (long) c.doubleValue();
            }
            throw error(path + "." + name, "must be a whole number (got " + describe(c) + ")");
        }
        return c.longValue();
    }

    String text(JsonNode node, String name, String path) {
        JsonNode c = child(node, name);
        if (c == null) {
            return null;
        }
        if (!c.isValueNode()) {
            throw error(path + "." + name, "must be a string (got " + describe(c) + ")");
        }
        return c.asText();
    }

    Boolean bool(JsonNode node, String name, String path) {
        JsonNode c = child(node, name);
        if (c == null) {
            return null;
        }
        if (!c.isBoolean()) {
            throw error(path + "." + name, "must be true or false (got " + describe(c) + ")");
        }
        return c.booleanValue();
    }

    /** [[x, y], ...] pairs of numbers. */
    List<double[]> pairs(JsonNode node, String name, String path) {
        List<double[]> out = new ArrayList<>();
        List<JsonNode> items = array(node, name, path);
        for (int i = 0; i < items.size(); i++) {
            JsonNode p = items.get(i);
            if (!p.isArray() || p.size() != 2 || !p.get(0).isNumber() || !p.get(1).isNumber()) {
                throw error(path + "." + name + "[" + i + "]", "must be a pair of numbers [x, y] (got " + describe(p) + ")");
            }
            out.add(new double[] {p.get(0).doubleValue(), p.get(1).doubleValue()});
        }
        return out;
    }

    List<Double> numbers(JsonNode node, String name, String path) {
        List<Double> out = new ArrayList<>();
        List<JsonNode> items = array(node, name, path);
        for (int i = 0; i < items.size(); i++) {
            JsonNode v = items.get(i);
            if (!v.isNumber()) {
                throw error(path + "." + name + "[" + i + "]", "must be a number (got " + describe(v) + ")");
            }
            out.add(v.doubleValue());
        }
        return out;
    }

    List<String> texts(JsonNode node, String name, String path) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : array(node, name, path)) {
            out.add(v.isValueNode() ? v.asText() : v.toString());
        }
        return out;
    }

    static String describe(JsonNode n) {
        String s = n.toString();
        return s.length() > 40 ? s.substring(0, 37) + "..." : s;
    }
}
