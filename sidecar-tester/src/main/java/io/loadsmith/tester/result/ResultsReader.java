package io.loadsmith.tester.result;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a {@code results.json} (schema {@value ResultsFile#SCHEMA}) back into the records {@link ResultsWriter}
 * writes. Fields this version does not know are ignored (files of a later v1 still read); a missing required
 * field (every count, time and flag), a value of the wrong type, or another schema is an error naming the
 * file and the field's path, e.g. {@code results.json: runs[0].counts.sent is missing}.
 */
public final class ResultsReader {

    private static final Pattern TOKEN = Pattern.compile("JsonToken\\.([A-Z_]+)");

    private ResultsReader() {
    }

    /** The results in {@code file}. @throws ResultsException when it cannot be read as results v1 */
    public static ResultsFile read(Path file) {
        JsonNode tree;
        try {
            tree = ResultsWriter.MAPPER.readTree(file.toFile());
        } catch (NoSuchFileException | FileNotFoundException e) {
            throw new ResultsException(file + ": no such file (a results directory holds results.json)", e);
        } catch (JsonProcessingException e) {
            throw notJson(file, e);
        } catch (IOException e) {
            throw new ResultsException(file + ": cannot be read: " + e, e);
        }
        String schema = tree == null ? null : tree.path("schema").asText(null);
        if (!ResultsFile.SCHEMA.equals(schema)) {
            throw new ResultsException(file + ": schema must be \"" + ResultsFile.SCHEMA + "\" (got "
                    + (schema == null ? "nothing" : "\"" + schema + "\"") + ")", null);
        }
        try {
            return ResultsWriter.MAPPER.treeToValue(tree, ResultsFile.class);
        } catch (JsonMappingException e) {
            throw new ResultsException(file + ": " + field(e) + " " + problem(e), e);
        } catch (JsonProcessingException e) {
            throw notJson(file, e);
        }
    }

    private static ResultsException notJson(Path file, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
        return new ResultsException(file + where + ": not valid JSON: " + e.getOriginalMessage(), e);
    }

    /** The JSON path of the field in error, e.g. {@code runs[0].latency_ms.service.p99}. */
    private static String field(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.length() == 0 ? "$" : path.toString();
    }

    private static String problem(JsonMappingException e) {
        String message = e.getOriginalMessage();
        if (message.startsWith("Missing required creator property")) {
            return "is missing";
        }
        if (e instanceof InvalidFormatException invalid) {
            Object value = invalid.getValue();
            return "must be " + kind(invalid.getTargetType()) + " (got "
                    + (value instanceof String ? "\"" + value + "\"" : value) + ")";
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return "must be " + kind(mismatch.getTargetType()) + " (got " + token(e) + ")";
        }
        return "cannot be read: " + message;
    }

    private static String kind(Class<?> type) {
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        if (type == long.class || type == Long.class || type == int.class || type == Integer.class) {
            return "a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        return Collection.class.isAssignableFrom(type) || type.isArray() ? "an array" : "an object";
    }

    /** What the file holds instead, from the token Jackson names in its message. */
    private static String token(JsonMappingException e) {
        Matcher token = TOKEN.matcher(e.getOriginalMessage());
        if (!token.find()) {
            return "something else";
        }
        return switch (token.group(1)) {
            case "START_OBJECT" -> "an object";
            case "START_ARRAY" -> "an array";
            case "VALUE_STRING" -> "a string";
            case "VALUE_NUMBER_INT", "VALUE_NUMBER_FLOAT" -> "a number";
            case "VALUE_TRUE", "VALUE_FALSE" -> "true or false";
            case "VALUE_NULL" -> "null";
            default -> "something else";
        };
    }
}
