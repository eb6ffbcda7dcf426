package io.loadsmith.tester.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON Schema of results.json v1 as shipped in the jar, and a strict copy of it for tests: the strict
 * copy refuses fields the schema does not declare, so a field the writer adds without the schema fails.
 */
public final class ResultsSchema {

    /** Where the schema is, on the class path. */
    public static final String RESOURCE = "/io/loadsmith/tester/result/results.schema.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema STRICT = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
            .getSchema(strict(text()).toString());

    private ResultsSchema() {
    }

    /** The shipped schema's text. */
    public static String text() {
        try (InputStream in = ResultsSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the class path");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What is wrong with {@code json} against the strict schema: one line per error, empty when valid. */
    public static List<String> problems(JsonNode json) {
        List<String> problems = new ArrayList<>();
        for (Error error : STRICT.validate(json)) {
            problems.add(error.getInstanceLocation() + ": " + error.getMessage());
        }
        return problems;
    }

    /** What is wrong with the file: not JSON, against the strict schema, or for {@link ResultsReader}. */
    public static List<String> problems(Path file) {
        List<String> problems = new ArrayList<>();
        try {
            problems.addAll(problems(JSON.readTree(file.toFile())));
            ResultsReader.read(file);
        } catch (IOException | ResultsException e) {
            problems.add(e.getMessage());
        }
        return problems;
    }

    private static JsonNode strict(String schema) {
        try {
            JsonNode root = JSON.readTree(schema);
            closeObjects(root);
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeObjects(JsonNode node) {
        if (node instanceof ObjectNode object && object.has("properties")) {
            object.put("additionalProperties", false);
        }
        node.forEach(ResultsSchema::closeObjects);
    }
}
