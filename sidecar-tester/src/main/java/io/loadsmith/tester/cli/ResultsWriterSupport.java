package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Atomic writes of the CLI's own small files (a temp file in the same folder, then a rename). */
final class ResultsWriterSupport {

    private ResultsWriterSupport() {
    }

    static void writeJson(Path file, JsonNode node) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            AdminCommands.PRETTY.writeValue(temp.toFile(), node);
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
