package io.loadsmith.tester.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/** Where a command writes its results: the folder given with {@code --out}, or a new one under {@code results/}. */
public final class ResultsDirs {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private ResultsDirs() {
    }

    /** {@code name} with every character that is unsafe in a file name replaced by {@code _}. */
    public static String fileSafe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /**
     * The folder to write into, created: {@code out} if given, else {@code results/<name>-<yyyyMMdd-HHmmss>}.
     *
     * @throws IllegalStateException if the folder already holds a results.json (results are never overwritten)
     */
    public static Path prepare(Path out, String name) throws IOException {
        Path dir = out != null ? out : Path.of("results", fileSafe(name) + "-" + LocalDateTime.now().format(STAMP));
        if (Files.isRegularFile(dir.resolve(ResultsWriter.FILE_NAME))) {
            throw new IllegalStateException("--out " + dir + " already holds results.json; give a new folder");
        }
        Files.createDirectories(dir);
        return dir;
    }
}
