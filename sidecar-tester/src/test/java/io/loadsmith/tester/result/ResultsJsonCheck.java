package io.loadsmith.tester.result;

import io.loadsmith.tester.verify.VerifyCheck;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Checks every results.json that a test leaves in a {@code @TempDir} against the JSON Schema (strictly: no
 * undeclared field) and reads it with {@link ResultsReader}, after each test and before JUnit deletes the
 * folder, and recomputes its figures from the raw files beside it ({@link VerifyCheck}: {@code loadsmith
 * verify}); a problem fails the test. Registered for every test by src/test/resources/junit-platform.properties
 * (the default temp-dir factory, and extension auto-detection). Tests annotated
 * {@link InvalidResultsOnPurpose} are left alone.
 */
public final class ResultsJsonCheck implements TempDirFactory, AfterEachCallback, AfterAllCallback {

    /** Temp folders created, with the unique id of the test (or class) they were made for. */
    private static final Map<Path, String> FOLDERS = new ConcurrentHashMap<>();
    private static final Map<Path, FileTime> CHECKED = new ConcurrentHashMap<>();

    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        Path dir = Files.createTempDirectory("junit");
        FOLDERS.put(dir, context.getUniqueId());
        return dir;
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        if (context.getRequiredTestMethod().isAnnotationPresent(InvalidResultsOnPurpose.class)) {
            FOLDERS.values().removeIf(context.getUniqueId()::equals);
        }
        check();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        check();
    }

    private static void check() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path dir : List.copyOf(FOLDERS.keySet())) {
            if (!Files.isDirectory(dir)) {
                FOLDERS.remove(dir);
                continue;
            }
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.filter(f -> f.getFileName().toString().equals(ResultsWriter.FILE_NAME)).toList()) {
                    FileTime modified = Files.getLastModifiedTime(file);
                    if (!modified.equals(CHECKED.get(file))) {
                        List<String> found = new ArrayList<>(ResultsSchema.problems(file));
                        if (found.isEmpty()) {
                            found.addAll(VerifyCheck.problems(file));
                        }
                        found.forEach(p -> problems.add(file + ": " + p));
                        CHECKED.put(file, modified);
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("results.json against results.schema.json and ResultsReader:\n  "
                    + String.join("\n  ", problems));
        }
    }
}
