package io.loadsmith.tester.session;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.report.ReportWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The JVM's heap ran out while the report of a results folder was drawn, after its results were written: its
 * message says which files are there and whole (results.json, requests.bin, latency.hlog, written before the
 * report and atomically or streamed to their end), which are not (report.html, and the charts not yet drawn),
 * and the command that finishes the report with more memory:
 * <pre>
 * out of memory (Java heap, at most 24 MiB) while writing the report of results/x, after its results: written
 * and whole: results.json, latency.hlog, requests.bin, scenario.yaml; not written: report.html (charts written:
 * spectrum.png, spectrum.svg); nothing measured is lost: finish the report with more memory:
 * LOADSMITH_JAVA_OPTS=-Xmx64m loadsmith report results/x
 * </pre>
 * The CLI exits with code 4 on it (docs/cli.md, "When the tester runs out of memory").
 */
public final class ReportOutOfMemoryException extends RuntimeException {

    private static final long MIB = 1L << 20;
    /** The files written before the report, in the order the message names them. */
    private static final List<String> RESULTS = List.of(ReportWriter.RESULTS_FILE, "latency.hlog", RequestLog.FILE_NAME,
            "scenario.yaml", "agent-stalls.json", "agent-pauses.json");

    private final transient Path dir;

    private ReportOutOfMemoryException(Path dir, String message, OutOfMemoryError cause) {
        super(message, cause);
        this.dir = dir;
    }

    /** The exception for {@code dir}, whose report ran out of memory with {@code cause}, in a heap of {@code maxHeapBytes}. */
    public static ReportOutOfMemoryException of(Path dir, OutOfMemoryError cause, long maxHeapBytes) {
        return new ReportOutOfMemoryException(dir, message(dir, maxHeapBytes), cause);
    }

    /** {@link #of(Path, OutOfMemoryError, long)} in this JVM's heap ({@link Runtime#maxMemory()}). */
    public static ReportOutOfMemoryException of(Path dir, OutOfMemoryError cause) {
        return of(dir, cause, Runtime.getRuntime().maxMemory());
    }

    /** The results folder whose report was not written. */
    public Path dir() {
        return dir;
    }

    static String message(Path dir, long maxHeapBytes) {
        List<String> written = new ArrayList<>();
        for (String name : RESULTS) {
            if (Files.isRegularFile(dir.resolve(name))) {
                written.add(name);
            }
        }
        List<String> charts = charts(dir);
        long heapMib = Math.max(1, maxHeapBytes / MIB);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                "out of memory (Java heap, at most %d MiB) while writing the report of %s, after its results: ", heapMib, dir));
        s.append(written.isEmpty() ? "no results file is there" : "written and whole: " + String.join(", ", written));
        s.append("; not written: ").append(ReportWriter.REPORT_FILE);
        s.append(charts.isEmpty() ? " and its charts" : " (charts written: " + String.join(", ", charts) + ")");
        s.append(String.format(Locale.ROOT, "; nothing measured is lost: finish the report with more memory: "
                + "LOADSMITH_JAVA_OPTS=-Xmx%dm loadsmith report %s", suggestedHeapMib(heapMib), dir));
        return s.toString();
    }

    /** Twice the heap that ran out, rounded up to 32 MiB, at least 64 MiB. */
    public static long suggestedHeapMib(long heapMib) {
        return Math.max(64, (2 * heapMib + 31) / 32 * 32);
    }

    private static List<String> charts(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".png") || n.endsWith(".svg"))
                    .sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
