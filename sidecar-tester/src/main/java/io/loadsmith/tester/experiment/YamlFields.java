package io.loadsmith.tester.experiment;

import io.loadsmith.tester.scenario.Durations;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A YAML node with its key path, read with SnakeYAML Engine's node API so errors name file:line: key. */
final class YamlFields {

    private final String file;
    private final String path;
    private final Node node;

    private YamlFields(String file, String path, Node node) {
        this.file = file;
        this.path = path;
        this.node = node;
    }

    static YamlFields parse(String text, String file) {
        try {
            Node root = new Compose(LoadSettings.builder().setLabel(file).build()).composeString(text)
                    .orElseThrow(() -> new ExperimentException(file + ": is empty"));
            return new YamlFields(file, "", root);
        } catch (YamlEngineException e) {
            throw new ExperimentException(file + ": not valid YAML: " + e.getMessage());
        }
    }

    ExperimentException error(String message) {
        int line = node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
        return new ExperimentException(file + ":" + line + ": " + (path.isEmpty() ? "" : path + " ") + message);
    }

    Map<String, YamlFields> mapping(Set<String> allowed) {
        if (!(node instanceof MappingNode mapping)) {
            throw error("must be a mapping of keys");
        }
        Map<String, YamlFields> fields = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            String key = ((ScalarNode) tuple.getKeyNode()).getValue();
            YamlFields value = new YamlFields(file, path.isEmpty() ? key : path + "." + key, tuple.getValueNode());
            if (!allowed.contains(key)) {
                throw new YamlFields(file, value.path, tuple.getKeyNode()).error("is not a known key (known: "
                        + String.join(", ", allowed) + ")");
            }
            fields.put(key, value);
        }
        return fields;
    }

    List<YamlFields> sequence() {
        if (!(node instanceof SequenceNode sequence)) {
            throw error("must be a list");
        }
        List<YamlFields> items = new ArrayList<>();
        for (int i = 0; i < sequence.getValue().size(); i++) {
            items.add(new YamlFields(file, path + "[" + i + "]", sequence.getValue().get(i)));
        }
        return items;
    }

    boolean isSequence() {
        return node instanceof SequenceNode;
    }

    String string() {
        if (!(node instanceof ScalarNode scalar)) {
            throw error("must be a single value");
        }
        return scalar.getValue();
    }

    long integer(long min) {
        long value;
        try {
            value = Long.parseLong(string().trim());
        } catch (NumberFormatException e) {
            throw error("must be a whole number (got " + string() + ")");
        }
        if (value < min) {
            throw error("must be >= " + min + " (got " + value + ")");
        }
        return value;
    }

    double number() {
        try {
            return Double.parseDouble(string().trim());
        } catch (NumberFormatException e) {
            throw error("must be a number (got " + string() + ")");
        }
    }

    long duration() {
        try {
            long nanos = Durations.parse(string().trim());
            if (nanos <= 0) {
                throw error("must be > 0 (got " + string() + ")");
            }
            return nanos;
        } catch (IllegalArgumentException e) {
            throw error("must be a duration like 30s or 100ms (" + e.getMessage() + ")");
        }
    }

    /** The node as JSON text (a flow mapping), to pass on as a scenario override. */
    String json() {
        StringBuilder out = new StringBuilder();
        json(node, out);
        return out.toString();
    }

    private static void json(Node node, StringBuilder out) {
        if (node instanceof MappingNode mapping) {
            out.append('{');
            boolean first = true;
            for (NodeTuple tuple : mapping.getValue()) {
                out.append(first ? "" : ", ");
                first = false;
                out.append(quote(((ScalarNode) tuple.getKeyNode()).getValue())).append(": ");
                json(tuple.getValueNode(), out);
            }
            out.append('}');
        } else if (node instanceof SequenceNode sequence) {
            out.append('[');
            for (int i = 0; i < sequence.getValue().size(); i++) {
                out.append(i == 0 ? "" : ", ");
                json(sequence.getValue().get(i), out);
            }
            out.append(']');
        } else {
            String value = ((ScalarNode) node).getValue();
            out.append(value.matches("-?[0-9]+(\\.[0-9]+)?") ? value : quote(value));
        }
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    String path() {
        return path;
    }
}
