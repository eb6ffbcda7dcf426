package io.loadsmith.tester.profile;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.loadsmith.tester.result.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;

/** Writes and reads pause profiles as JSON (snake_case, {@code docs/schemas/pause-profile.schema.json}). */
public final class PauseProfiles {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private PauseProfiles() {
    }

    /** Writes profile to file, replacing it atomically: a reader never sees half a profile. */
    public static void write(Path file, PauseProfile profile) throws IOException {
        AtomicFiles.write(file, out -> MAPPER.writeValue(out, profile));
    }

    /** The profile in file; one that is not a pause profile, or has a pause that cannot be armed, is refused. */
    public static PauseProfile read(Path file) throws IOException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr();
            throw new ProfileException(file + where + ": not JSON: " + e.getOriginalMessage(), e);
        }
        String schema = tree.path("schema").asText(null);
        if (!PauseProfile.SCHEMA.equals(schema)) {
            throw new ProfileException(file + ": schema: expected \"" + PauseProfile.SCHEMA + "\" (got "
                    + (schema == null ? "none" : "\"" + schema + "\"") + "): not a pause profile");
        }
        PauseProfile profile;
        try {
            profile = MAPPER.treeToValue(tree, PauseProfile.class);
        } catch (JsonMappingException e) {
            String field = e.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .reduce("", (a, b) -> a.isEmpty() || b.startsWith("[") ? a + b : a + "." + b);
            throw new ProfileException(file + ": " + field + ": " + e.getOriginalMessage(), e);
        }
        for (int i = 0; i < profile.pauses().size(); i++) {
            PauseProfile.Pause p = profile.pauses().get(i);
            if (p.offsetMs() < 0 || p.durationMs() <= 0) {
                throw new ProfileException(file + ": pauses[" + i + "]: offset_ms must be >= 0 and duration_ms > 0 (got "
                        + p.offsetMs() + " and " + p.durationMs() + ")");
            }
        }
        return profile;
    }
}
