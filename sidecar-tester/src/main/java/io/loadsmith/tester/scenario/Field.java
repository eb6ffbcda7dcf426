package io.loadsmith.tester.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * One node of a scenario or experiment file with its dotted key ({@code load.stages[1].target}), read
 * through typed accessors that fail with a {@link ScenarioException} naming file, line and key. Unknown
 * keys (with "did you mean") and keys given twice are errors.
 *
 * <pre>{@code
 * Map<String, Field> load = Field.parse(text, "e.yaml").mapping(Set.of("load")).get("load").mapping(LOAD);
 * }</pre>
 */
public final class Field {

    /** The mappings read on this thread while {@link #keysRead} runs; null otherwise. */
    private static final ThreadLocal<Map<String, Set<String>>> KEYS_READ = new ThreadLocal<>();

    private final Node node;
    private final String key;
    private final String fileLabel;

    Field(Node node, String key, String fileLabel) {
        this.node = node;
        this.key = key;
        this.fileLabel = fileLabel;
    }

    /**
     * The root of a YAML text; {@code label} (the file name) names it in errors.
     *
     * @throws ScenarioException when the text is not valid YAML or holds nothing
     */
    public static Field parse(String text, String label) {
        Field root = new Field(compose(text, label).orElseThrow(() -> new ScenarioException(label + ": is empty")), "",
                label);
        if (root.isNull()) {
            throw new ScenarioException(label + ": is empty");
        }
        return root;
    }

    /** The node tree of a text, or empty when it holds no document; {@code name} names it in errors. */
    static Optional<Node> compose(String text, String name) {
        LoadSettings settings = LoadSettings.builder().setLabel(name).setAllowDuplicateKeys(true).build();
        try {
            return new Compose(settings).composeString(text);
        } catch (MarkedYamlEngineException e) {
            String where = e.getProblemMark().map(m -> name.startsWith("--set ") ? name : name + ":" + (m.getLine() + 1))
                    .orElse(name);
            throw new ScenarioException(where + ": not valid YAML: " + e.getProblem(), e);
        } catch (YamlEngineException e) {
            throw new ScenarioException(name + ": not valid YAML: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code parse} and returns every mapping it read through {@link #mapping}, by key path with list
     * indices left out ({@code journeys[].steps[].check}; {@code ""} for the root), with the keys allowed
     * there: what the JSON Schemas in docs/schemas are held to. Not thread-safe across threads: it sees only
     * what {@code parse} reads on the calling thread.
     */
    public static Map<String, Set<String>> keysRead(Runnable parse) {
        Map<String, Set<String>> read = new TreeMap<>();
        KEYS_READ.set(read);
        try {
            parse.run();
        } finally {
            KEYS_READ.remove();
        }
        return read;
    }

    /** Allowed keys for {@link #mapping}, in the order errors list them. */
    public static Set<String> keys(String... names) {
        return new LinkedHashSet<>(List.of(names));
    }

    String key() {
        return key;
    }

    Node node() {
        return node;
    }

    /** "file:line" of this node ("--set key=value" for an override). */
    String where() {
        return where(node.getStartMark());
    }

    String where(Optional<Mark> mark) {
        if (mark.isEmpty()) {
            return fileLabel;
        }
        String name = mark.get().getName();
        if (name != null && name.startsWith("--set ")) {
            return name;
        }
        return fileLabel + ":" + (mark.get().getLine() + 1);
    }

    /** {@code file:line: key message}, to throw. */
    public ScenarioException error(String message) {
        return new ScenarioException(where() + ": " + (key.isEmpty() ? "" : key + " ") + message);
    }

    boolean isMapping() {
        return node instanceof MappingNode;
    }

    public boolean isSequence() {
        return node instanceof SequenceNode;
    }

    boolean isScalar() {
        return node instanceof ScalarNode;
    }

    boolean isNull() {
        return node instanceof ScalarNode s && isNullText(s.getValue()) && s.isPlain();
    }

    private static boolean isNullText(String text) {
        return text.isEmpty() || text.equals("~") || text.equals("null") || text.equals("Null") || text.equals("NULL");
    }

    /** The mapping's entries, checked against the allowed keys (unknown and repeated keys are errors). */
    public Map<String, Field> mapping(Set<String> allowed) {
        if (!(node instanceof MappingNode m)) {
            throw error("must be a mapping of " + String.join(", ", allowed) + " (got " + describe() + ")");
        }
        Map<String, Set<String>> read = KEYS_READ.get();
        if (read != null) {
            read.merge(key.replaceAll("\\[[0-9]+]", "[]"), allowed, (a, b) -> {
                Set<String> union = new LinkedHashSet<>(a);
                union.addAll(b);
                return union;
            });
        }
        Map<String, Field> fields = new LinkedHashMap<>();
        for (NodeTuple tuple : m.getValue()) {
            Node keyNode = tuple.getKeyNode();
            String name = keyNode instanceof ScalarNode s ? s.getValue() : String.valueOf(keyNode);
            String childKey = key.isEmpty() ? name : key + "." + name;
            if (!allowed.contains(name)) {
                String hint = Suggest.nearest(name, allowed)
                        .map(s -> " (did you mean " + s + "?)")
                        .orElse(" (known keys: " + String.join(", ", allowed) + ")");
                throw new ScenarioException(where(keyNode.getStartMark()) + ": " + childKey + " is not a known key" + hint);
            }
            if (fields.containsKey(name)) {
                throw new ScenarioException(where(keyNode.getStartMark()) + ": " + childKey + " is given twice");
            }
            fields.put(name, new Field(tuple.getValueNode(), childKey, fileLabel));
        }
        return fields;
    }

    /**
     * {@link #mapping}'s entries, read through {@link Mapping}: a key left out gives its default, a key given is
     * read by the typed accessor (with the same errors).
     */
    public Mapping entries(Set<String> allowed) {
        return new Mapping(this, mapping(allowed));
    }

    /**
     * The entries of one mapping, by key, with readers that state each key's default once:
     * {@code (int) load.integer("connections", 1, MAX, 1)} reads {@code load.connections} when it is given, and
     * gives 1 when it is not.
     */
    public static final class Mapping {
        private final Field parent;
        private final Map<String, Field> fields;

        private Mapping(Field parent, Map<String, Field> fields) {
            this.parent = parent;
            this.fields = fields;
        }

        public boolean has(String name) {
            return fields.containsKey(name);
        }

        /** The key's field, or null when it is left out. */
        public Field get(String name) {
            return fields.get(name);
        }

        public Optional<Field> optional(String name) {
            return Optional.ofNullable(fields.get(name));
        }

        /** The key's field; left out or null, it fails where the mapping is: {@code e.yaml:3: load.duration is required}. */
        public Field required(String name) {
            Field field = fields.get(name);
            if (field == null || field.isNull()) {
                String childKey = parent.key.isEmpty() ? name : parent.key + "." + name;
                throw new ScenarioException(parent.where() + ": " + childKey + " is required");
            }
            return field;
        }

        /** {@link Field#string()} trimmed, or {@code otherwise}. */
        public String trimmed(String name, String otherwise) {
            return has(name) ? get(name).string().trim() : otherwise;
        }

        /** {@link Field#integer}, or {@code otherwise}. */
        public long integer(String name, long min, long max, long otherwise) {
            return has(name) ? get(name).integer(min, max) : otherwise;
        }

        /** {@link Field#number}, or {@code otherwise}. */
        public double number(String name, double min, boolean exclusiveMin, double otherwise) {
            return has(name) ? get(name).number(min, exclusiveMin) : otherwise;
        }

        /** {@link Field#duration}, in nanoseconds, or {@code otherwiseNanos}. */
        public long duration(String name, long minNanos, boolean exclusiveMin, long otherwiseNanos) {
            return has(name) ? get(name).duration(minNanos, exclusiveMin) : otherwiseNanos;
        }

        /** {@link Field#choice}, or {@code otherwise}. */
        <E extends Enum<E>> E choice(String name, Class<E> type, E otherwise) {
            return has(name) ? get(name).choice(type) : otherwise;
        }

        /** These entries without {@code names}, for a reader of the rest (errors still name this mapping). */
        Mapping without(String... names) {
            Map<String, Field> rest = new LinkedHashMap<>(fields);
            List.of(names).forEach(rest::remove);
            return new Mapping(parent, rest);
        }
    }

    /** The mapping's entries with free-form keys (headers, json checks). */
    Map<String, Field> freeMapping(String expected) {
        if (!(node instanceof MappingNode m)) {
            throw error("must be a mapping of " + expected + " (got " + describe() + ")");
        }
        Map<String, Field> fields = new LinkedHashMap<>();
        for (NodeTuple tuple : m.getValue()) {
            Node keyNode = tuple.getKeyNode();
            if (!(keyNode instanceof ScalarNode s)) {
                throw new ScenarioException(where(keyNode.getStartMark()) + ": " + key + " keys must be plain text");
            }
            String childKey = key + "." + s.getValue();
            if (fields.containsKey(s.getValue())) {
                throw new ScenarioException(where(keyNode.getStartMark()) + ": " + childKey + " is given twice");
            }
            fields.put(s.getValue(), new Field(tuple.getValueNode(), childKey, fileLabel));
        }
        return fields;
    }

    public List<Field> sequence(String expected) {
        if (!(node instanceof SequenceNode seq)) {
            throw error("must be a list of " + expected + " (got " + describe() + ")");
        }
        List<Field> items = new ArrayList<>();
        for (int i = 0; i < seq.getValue().size(); i++) {
            items.add(new Field(seq.getValue().get(i), key + "[" + i + "]", fileLabel));
        }
        return items;
    }

    String text() {
        if (!(node instanceof ScalarNode s)) {
            throw error("must be a single value (got " + describe() + ")");
        }
        return s.getValue();
    }

    /** A non-empty text. */
    public String string() {
        String value = text();
        if (value.isBlank()) {
            throw error("must not be empty");
        }
        return value;
    }

    public long integer(long min, long max) {
        String value = text().trim().replace("_", "");
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw error("must be a whole number (got " + quote(text()) + ")");
        }
        if (parsed < min) {
            throw error("must be >= " + min + " (got " + parsed + ")");
        }
        if (parsed > max) {
            throw error("must be <= " + max + " (got " + parsed + ")");
        }
        return parsed;
    }

    /** A finite number; {@code exclusiveMin} true means it must be strictly above {@code min}. */
    public double number(double min, boolean exclusiveMin) {
        String value = text().trim().replace("_", "");
        double parsed;
        try {
            parsed = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw error("must be a number (got " + quote(text()) + ")");
        }
        if (!Double.isFinite(parsed) || value.endsWith("d") || value.endsWith("f") || value.endsWith("D") || value.endsWith("F")) {
            throw error("must be a number (got " + quote(text()) + ")");
        }
        if (exclusiveMin ? parsed <= min : parsed < min) {
            throw error("must be " + (exclusiveMin ? "> " : ">= ") + Durations.plain(min) + " (got " + Durations.plain(parsed) + ")");
        }
        return parsed;
    }

    /** A duration with a unit ({@code 250ms}, {@code 1.5s}); {@code 0} alone is accepted. */
    public long duration(long minNanos, boolean exclusiveMin) {
        String value = text();
        long nanos;
        try {
            nanos = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
        if (exclusiveMin ? nanos <= minNanos : nanos < minNanos) {
            throw error("must be " + (exclusiveMin ? "> " : ">= ") + Durations.format(minNanos) + " (got " + value.trim() + ")");
        }
        return nanos;
    }

    <E extends Enum<E>> E choice(Class<E> type) {
        String value = text().trim();
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            String name = constant.name().toLowerCase(Locale.ROOT);
            names.add(name);
            if (name.equals(value)) {
                return constant;
            }
        }
        String hint = Suggest.nearest(value, names).map(s -> "; did you mean " + s + "?").orElse("");
        throw error("must be one of " + String.join(", ", names) + " (got " + quote(value) + hint + ")");
    }

    /** The node as JSON text (mappings in flow style), to pass on as a {@code --set} override. */
    public String json() {
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
                out.append(jsonString(((ScalarNode) tuple.getKeyNode()).getValue())).append(": ");
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
            out.append(value.matches("-?[0-9]+(\\.[0-9]+)?") ? value : jsonString(value));
        }
    }

    private static String jsonString(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    String describe() {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        return quote(((ScalarNode) node).getValue());
    }

    static String quote(String text) {
        return "\"" + text + "\"";
    }
}
