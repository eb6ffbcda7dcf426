package io.loadsmith.tester.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes {@code results.json} atomically (a temporary file in the same folder, then an atomic move), so a
 * reader never sees half a file, and reads it back. Field names are snake_case; nulls are left out.
 */
public final class ResultsWriter {

    /** The file name in a results folder. */
    public static final String FILE_NAME = "results.json";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ResultsWriter() {
    }

    /** Writes results to file (e.g. {@code dir/results.json}), replacing it atomically. */
    public static void write(Path file, ResultsFile results) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, ".results-", ".json.tmp");
        try {
            MAPPER.writeValue(temp.toFile(), results);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Reads a results file written by {@link #write}. */
    public static ResultsFile read(Path file) throws IOException {
        return MAPPER.readValue(file.toFile(), ResultsFile.class);
    }

    /** The mapper used (snake_case, nulls left out), for callers that add their own fields. */
    public static ObjectMapper mapper() {
        return MAPPER.copy();
    }
}
