package io.loadsmith.tester.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultsReaderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema SHIPPED = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(ResultsSchema.text());

    @TempDir
    Path dir;

    private Path written(ResultsFile results) throws IOException {
        return ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), results);
    }

    @Test
    void reading_what_the_writer_wrote_gives_the_same_results() throws IOException {
        ResultsFile rich = ResultsFixtures.rich();

        assertThat(ResultsReader.read(written(rich))).isEqualTo(rich);
    }

    @Test
    void a_file_with_every_part_follows_the_schema_and_declares_no_other_field() throws IOException {
        assertThat(ResultsSchema.problems(written(ResultsFixtures.rich()))).isEmpty();
    }

    @Test
    void the_test_check_refuses_a_field_the_schema_does_not_declare() throws IOException {
        ObjectNode json = (ObjectNode) JSON.readTree(written(ResultsFixtures.rich()).toFile());
        ((ObjectNode) json.at("/runs/0/counts")).put("retried", 3);

        assertThat(ResultsSchema.problems(json)).containsExactly(
                "/runs/0/counts: property 'retried' is not defined in the schema and the schema does not allow additional properties");
    }

    @Test
    void the_schema_in_docs_is_the_one_in_the_jar() throws IOException {
        Path docs = Path.of("").toAbsolutePath().getParent().resolve("docs/results.schema.json");

        assertThat(Files.readString(docs)).isEqualTo(ResultsSchema.text());
    }

    @Test
    void reader_and_schema_agree_on_every_field_that_may_be_left_out() throws IOException {
        JsonNode rich = JSON.readTree(written(ResultsFixtures.rich()).toFile());
        Map<String, List<Object>> fields = new LinkedHashMap<>();
        collect(rich, "", new ArrayList<>(), fields);
        List<String> disagreements = new ArrayList<>();
        for (Map.Entry<String, List<Object>> field : fields.entrySet()) {
            JsonNode without = rich.deepCopy();
            List<Object> at = field.getValue();
            ((ObjectNode) walk(without, at.subList(0, at.size() - 1))).remove((String) at.get(at.size() - 1));
            boolean schemaAccepts = SHIPPED.validate(without).isEmpty();
            boolean readerAccepts = reads(without);
            if (schemaAccepts != readerAccepts) {
                disagreements.add(field.getKey() + ": schema " + (schemaAccepts ? "accepts" : "refuses") + " it missing, reader "
                        + (readerAccepts ? "accepts" : "refuses"));
            }
        }
        assertThat(fields).hasSizeGreaterThan(150);
        assertThat(disagreements).isEmpty();
    }

    @Test
    void unknown_fields_are_ignored_so_a_later_v1_file_still_reads() throws IOException {
        ObjectNode json = JSON.valueToTree(JSON.readTree(written(ResultsFixtures.rich()).toFile()));
        json.put("added_later", 1);
        ((ObjectNode) json.at("/runs/0")).putObject("observed_pauses").put("count", 3);
        Files.writeString(dir.resolve("later.json"), json.toString());

        assertThat(ResultsReader.read(dir.resolve("later.json"))).isEqualTo(ResultsFixtures.rich());
        assertThat(SHIPPED.validate(json)).isEmpty();
    }

    @Test
    @InvalidResultsOnPurpose
    void a_missing_count_is_refused_naming_the_file_and_its_path() throws IOException {
        ObjectNode json = (ObjectNode) JSON.readTree(written(ResultsFixtures.rich()).toFile());
        ((ObjectNode) json.at("/runs/1/counts")).remove("sent");
        Path file = dir.resolve("missing.json");
        Files.writeString(file, json.toString());

        assertThatThrownBy(() -> ResultsReader.read(file)).isInstanceOf(ResultsException.class)
                .hasMessage(file + ": runs[1].counts.sent is missing");
    }

    @Test
    @InvalidResultsOnPurpose
    void a_value_of_the_wrong_type_is_refused_naming_the_file_and_its_path() throws IOException {
        ObjectNode json = (ObjectNode) JSON.readTree(written(ResultsFixtures.rich()).toFile());
        ((ObjectNode) json.at("/runs/0/stalls/1")).put("met", "yes");
        Path file = dir.resolve("wrong.json");
        Files.writeString(file, json.toString());

        assertThatThrownBy(() -> ResultsReader.read(file)).isInstanceOf(ResultsException.class)
                .hasMessage(file + ": runs[0].stalls[1].met must be true or false (got \"yes\")");
    }

    @Test
    @InvalidResultsOnPurpose
    void an_object_where_a_list_belongs_is_refused_naming_its_path() throws IOException {
        ObjectNode json = (ObjectNode) JSON.readTree(written(ResultsFixtures.rich()).toFile());
        ((ObjectNode) json.at("/experiment")).putArray("per_arm").addObject().put("stall", true).putObject("rounds");
        Path file = dir.resolve("wrong.json");
        Files.writeString(file, json.toString());

        assertThatThrownBy(() -> ResultsReader.read(file)).isInstanceOf(ResultsException.class)
                .hasMessage(file + ": experiment.per_arm[0].rounds must be an array (got an object)");
    }

    /** Every object field of the tree, once per shape (array indices as [*]), with its path of names and indices. */
    private static void collect(JsonNode node, String shape, List<Object> at, Map<String, List<Object>> out) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                List<Object> next = new ArrayList<>(at);
                next.add(e.getKey());
                String key = shape + "." + e.getKey();
                out.putIfAbsent(key, next);
                collect(e.getValue(), key, next, out);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                List<Object> next = new ArrayList<>(at);
                next.add(i);
                collect(array.get(i), shape + "[*]", next, out);
            }
        }
    }

    private static JsonNode walk(JsonNode node, List<Object> at) {
        for (Object step : at) {
            node = step instanceof Integer i ? node.get(i) : node.get((String) step);
        }
        return node;
    }

    private boolean reads(JsonNode json) throws IOException {
        Path file = Files.createTempFile(dir, "variant", ".json");
        Files.writeString(file, json.toString());
        try {
            ResultsReader.read(file);
            return true;
        } catch (ResultsException e) {
            return false;
        }
    }
}
