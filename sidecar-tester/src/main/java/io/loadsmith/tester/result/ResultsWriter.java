package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedParameter;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code results.json} atomically ({@link AtomicFiles}), so a reader never sees half a file;
 * {@link ResultsReader} reads it back into the same records. Field names are snake_case; nulls are left out.
 */
public final class ResultsWriter {

    /** The file name in a results folder. */
    public static final String FILE_NAME = "results.json";

    static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .setAnnotationIntrospector(new PrimitivesRequired())
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

    private ResultsWriter() {
    }

    /** Writes results to file (e.g. {@code dir/results.json}), replacing it atomically; returns file. */
    public static Path write(Path file, ResultsFile results) throws IOException {
        AtomicFiles.write(file, out -> MAPPER.writeValue(out, results));
        return file;
    }

    /** A part of the results as the JSON tree it is written as (snake_case names, nulls left out); null for null. */
    public static JsonNode toTree(Object part) {
        return part == null ? null : MAPPER.valueToTree(part);
    }

    /**
     * A record component of a primitive type (a count, a time, a flag) must be in the file: absent, it would
     * read as 0 or false. Components of other types are optional unless marked {@code required}.
     */
    private static final class PrimitivesRequired extends JacksonAnnotationIntrospector {
        @Override
        public Boolean hasRequiredMarker(AnnotatedMember m) {
            Boolean marked = super.hasRequiredMarker(m);
            if (Boolean.TRUE.equals(marked)) {
                return true;
            }
            return m instanceof AnnotatedParameter && m.getRawType().isPrimitive() ? Boolean.TRUE : marked;
        }
    }
}
