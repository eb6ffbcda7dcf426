package io.loadsmith.tester.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The JSON Schemas of scenario and experiment files (docs/schemas) against the examples and the parsers:
 * every example names its schema and is valid under it, and every mapping the parsers read
 * ({@link Field#keysRead}) has exactly the keys the schema declares at that place, and the reverse.
 */
class FileSchemasTest {

    private static final Path ROOT = ServiceProcess.findRoot(Path.of(""));
    private static final Path SCHEMAS = ROOT.resolve("docs/schemas");
    private static final Path FIXTURES = ROOT.resolve("sidecar-tester/src/test/resources/io/loadsmith/tester/scenario/every-key");
    private static final ObjectMapper JSON = new ObjectMapper();

    private enum Kind {
        SCENARIO("scenario.schema.json"), EXPERIMENT("experiment.schema.json");

        final String schemaFile;

        Kind(String schemaFile) {
            this.schemaFile = schemaFile;
        }

        JsonNode schema() throws IOException {
            return JSON.readTree(SCHEMAS.resolve(schemaFile).toFile());
        }

        void parse(Path file) {
            if (this == SCENARIO) {
                ScenarioParser.parse(file, List.of());
            } else {
                ExperimentSpec.parse(file);
            }
        }
    }

    @Test
    void every_example_names_its_schema_on_its_first_line() throws IOException {
        for (Path file : files(Kind.SCENARIO)) {
            assertThat(Files.readAllLines(file).get(0)).as(file.toString())
                    .isEqualTo("# yaml-language-server: $schema=" + file.getParent().relativize(SCHEMAS.resolve("scenario.schema.json")).toString().replace('\\', '/'));
        }
        for (Path file : files(Kind.EXPERIMENT)) {
            assertThat(Files.readAllLines(file).get(0)).as(file.toString())
                    .isEqualTo("# yaml-language-server: $schema=" + file.getParent().relativize(SCHEMAS.resolve("experiment.schema.json")).toString().replace('\\', '/'));
        }
    }

    @Test
    void every_example_is_valid_under_its_schema() throws IOException {
        for (Kind kind : Kind.values()) {
            Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(kind.schema().toString());
            for (Path file : files(kind)) {
                Object yaml = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(file));
                List<String> problems = new ArrayList<>();
                for (Error error : schema.validate(JSON.valueToTree(yaml))) {
                    problems.add(error.getInstanceLocation() + ": " + error.getMessage());
                }
                assertThat(problems).as(file.toString()).isEmpty();
            }
        }
    }

    @Test
    void the_scenario_schema_declares_exactly_the_keys_the_parser_reads() throws IOException {
        assertSchemaMatchesParser(Kind.SCENARIO);
    }

    @Test
    void the_experiment_schema_declares_exactly_the_keys_the_parser_reads() throws IOException {
        assertSchemaMatchesParser(Kind.EXPERIMENT);
    }

    @Test
    void a_key_the_parser_takes_and_the_schema_lacks_is_found() throws IOException {
        JsonNode schema = Kind.SCENARIO.schema();
        ((com.fasterxml.jackson.databind.node.ObjectNode) schema.at("/$defs/load/properties")).remove("grace");

        Map<String, Set<String>> read = new TreeMap<>(Map.of("load", Set.of("grace", "seed")));
        assertThat(differences(schema, read, Map.of("load", Set.of("seed"))))
                .containsExactly("load: the parser takes [grace], the schema lacks them");
    }

    private static void assertSchemaMatchesParser(Kind kind) throws IOException {
        JsonNode schema = kind.schema();
        Map<String, Set<String>> read = new TreeMap<>();
        for (Path file : files(kind)) {
            Field.keysRead(() -> kind.parse(file)).forEach((path, keys) -> read.merge(path, keys, (a, b) -> {
                Set<String> union = new TreeSet<>(a);
                union.addAll(b);
                return union;
            }));
        }
        Map<String, Set<String>> declared = new TreeMap<>();
        objects(schema, schema, "", (path, keys) -> declared.put(path, keys));

        assertThat(differences(schema, read, declared)).isEmpty();
    }

    /** One line per place where the parser's keys and the schema's differ, or one of them has no mapping. */
    private static List<String> differences(JsonNode schema, Map<String, Set<String>> read, Map<String, Set<String>> declared) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, Set<String>> entry : read.entrySet()) {
            Set<String> schemaKeys = declared.get(entry.getKey());
            if (schemaKeys == null) {
                lines.add(where(entry.getKey()) + ": the parser reads a mapping here, the schema declares none");
                continue;
            }
            Set<String> lacking = new TreeSet<>(entry.getValue());
            lacking.removeAll(schemaKeys);
            Set<String> extra = new TreeSet<>(schemaKeys);
            extra.removeAll(entry.getValue());
            if (!lacking.isEmpty()) {
                lines.add(where(entry.getKey()) + ": the parser takes " + lacking + ", the schema lacks them");
            }
            if (!extra.isEmpty()) {
                lines.add(where(entry.getKey()) + ": the schema declares " + extra + ", the parser refuses them");
            }
        }
        for (String path : declared.keySet()) {
            if (!read.containsKey(path)) {
                lines.add(where(path) + ": the schema declares a mapping that no example or fixture reads (add one to every-key/)");
            }
        }
        return lines;
    }

    private static String where(String path) {
        return path.isEmpty() ? "(top level)" : path;
    }

    /**
     * Every object of the schema that allows no other keys, by key path as {@link Field#keysRead} writes
     * it ({@code journeys[].steps[].check}), with its declared keys.
     */
    private static void objects(JsonNode root, JsonNode node, String path, java.util.function.BiConsumer<String, Set<String>> out) {
        JsonNode resolved = resolve(root, node);
        if (resolved.has("properties") && resolved.path("additionalProperties").isBoolean()
                && !resolved.path("additionalProperties").asBoolean()) {
            Set<String> keys = new TreeSet<>();
            resolved.get("properties").fieldNames().forEachRemaining(keys::add);
            out.accept(path, keys);
        }
        if (resolved.has("properties")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = resolved.get("properties").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> property = it.next();
                objects(root, property.getValue(), path.isEmpty() ? property.getKey() : path + "." + property.getKey(), out);
            }
        }
        if (resolved.has("items")) {
            objects(root, resolved.get("items"), path + "[]", out);
        }
        for (String alternatives : List.of("anyOf", "oneOf")) {
            resolved.path(alternatives).forEach(alternative -> objects(root, alternative, path, out));
        }
    }

    private static JsonNode resolve(JsonNode root, JsonNode node) {
        JsonNode resolved = node;
        while (resolved.has("$ref")) {
            resolved = root.at(resolved.get("$ref").asText().substring(1));
        }
        return resolved;
    }

    /** The examples of a kind, and the fixtures that read what the examples do not. */
    private static List<Path> files(Kind kind) throws IOException {
        List<Path> files = new ArrayList<>();
        Path examples = ROOT.resolve(kind == Kind.SCENARIO ? "examples/scenarios" : "examples/experiments");
        Consumer<Path> add = files::add;
        try (Stream<Path> listed = Files.list(examples)) {
            listed.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(add);
        }
        try (Stream<Path> listed = Files.list(FIXTURES)) {
            listed.filter(p -> p.toString().endsWith(".yaml"))
                    .filter(p -> p.getFileName().toString().startsWith("experiment") == (kind == Kind.EXPERIMENT))
                    .sorted().forEach(add);
        }
        return files;
    }
}
