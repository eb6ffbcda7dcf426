package io.loadsmith.tester.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the pauses of a JDK's unified GC log ({@code -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags}, JDK 17
 * to 25; {@code uptime}, {@code uptimemillis} or {@code uptimenanos} decorations) into a {@link PauseProfile}
 * whose offset 0 is the JVM's start.
 *
 * <p>Both kinds of line are printed when their pause ends. A safepoint line ({@code Safepoint "Op", ...,
 * Total: N ns}) gives the whole stop, time to reach the safepoint included; a collector's pause line ({@code
 * GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.456ms}, ZGC's {@code y: Pause Mark Start
 * 0.012ms}) gives what the collector did inside one, and is printed inside it: before its safepoint's line and
 * after the line of the safepoint before. So a collector's line belongs to the first safepoint line after it,
 * by the log's order, not by time (at 1 ms stamps a safepoint that ended in the same millisecond looks as
 * good), and only when that safepoint's operation is one that runs such a pause ({@code ZRelocateStartOld} for
 * ZGC's {@code O: Pause Relocate Start}, {@code ShenandoahInitMark} for {@code Pause Init Mark}, a {@code G1}
 * operation for G1's pauses, ...: {@link #runs}): it becomes one pause with the safepoint's window and the
 * collector's label. A collector's line that the next safepoint line does not fit is not placed: counted as
 * unread, and that safepoint keeps its own label. Without safepoint lines after it (a log of {@code gc*} alone,
 * or one cut mid-pause) a collector's line keeps its own window. Every other decorated line is read and left.
 * A line without a decoration, and a safepoint or pause line of a form not known here (no total, no duration),
 * is counted as unread, with the first few kept: never dropped unseen.
 *
 * <p>No two pauses overlap or touch: stamps rounded to 1 ms can make a pause seem to start before the one logged
 * before it ended, and it is then moved to start 1 ns after that one ends, with its own duration (a safepoint's
 * is exact): two stops, never one, and each within the resolution of where the log puts it.
 */
public final class GcLogReader {

    /**
     * How far the uptime may go back before the file is taken for two JVMs' runs: threads' lines reach the
     * file a little out of order (by microseconds, seen with Shenandoah on JDK 25), a restarted JVM starts again
     * near 0.
     */
    static final long RESTART_NANOS = 1_000_000_000L;

    /** Unread lines kept in the profile, by number and text. */
    static final int UNREAD_KEPT = 5;

    private static final Pattern DECORATION = Pattern.compile("\\[([^\\]]*)\\]");
    private static final Pattern UPTIME_SECONDS = Pattern.compile("(\\d+)[.,](\\d+)s");
    private static final Pattern UPTIME_MILLIS = Pattern.compile("(\\d+)ms");
    private static final Pattern UPTIME_NANOS = Pattern.compile("(\\d+)ns");
    private static final Pattern SAFEPOINT = Pattern.compile("Safepoint \"([^\"]+)\".*\\bTotal: (\\d+) ns.*");
    private static final Pattern GC_PAUSE = Pattern.compile(
            "(?:GC\\(\\d+\\) )?(?:([yYoO]): )?(Pause .*?)(?: \\d+[KMG]->\\d+[KMG]\\(\\d+[KMG]\\))? (\\d+(?:[.,]\\d+)?)ms");
    /** A collector's pause line, whatever follows: "GC(3) Pause Young ...", ZGC's "y: Pause Mark Start ...". */
    private static final Pattern PAUSE_WORD = Pattern.compile("^(?:GC\\(\\d+\\) )?(?:[yYoO]: )?Pause ");
    /** The safepoint operations in which every stop-the-world collector may run its pauses. */
    private static final Set<String> SHARED_OPS = Set.of("CollectForMetadataAllocation", "CollectForCodeCacheAllocation",
            "GC_HeapInspection", "HeapDumper");
    private static final Pattern COLLECTOR = Pattern.compile("Using (Serial|Parallel|G1|Shenandoah|The Z Garbage Collector)");

    private GcLogReader() {
    }

    /** The profile of file; a file that is not a unified GC log, or holds two JVMs' runs, is refused by line. */
    public static PauseProfile read(Path file) throws IOException {
        LogPass reading = new LogPass(file);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                reading.line(line);
            }
        }
        return reading.profile();
    }

    /**
     * Whether the safepoint operation {@code op} runs the collector's pause {@code phase} ({@code Pause Mark
     * Start (Major)}) of {@code generation} ({@code y}, {@code Y}, {@code o}, {@code O}, or null) under {@code
     * collector} (null when the log does not name it: any collector's rule). ZGC and Shenandoah run one pause
     * per operation, named after it and, on JDK 21 and later, ZGC's generation ({@code y: Pause Mark Start}: {@code
     * ZMarkStartYoung}; {@code Y: Pause Mark Start (Major)}: {@code ZMarkStartYoungAndOld}; {@code O: Pause
     * Relocate Start}: {@code ZRelocateStartOld}; {@code Pause Final Mark}: {@code ShenandoahFinalMarkStartEvac}); Serial, Parallel and G1 run theirs in their own operations (JDK 17's {@code
     * GenCollectForAllocation}, JDK 25's {@code SerialCollectForAllocation}, {@code ParallelGCFailedAllocation},
     * {@code G1PauseRemark}, ...) and in the ones every collector shares ({@code CollectForMetadataAllocation},
     * {@code GC_HeapInspection}, {@code HeapDumper}).
     */
    static boolean runs(String op, String collector, String generation, String phase) {
        if (collector == null) {
            return Stream.of("Serial", "Parallel", "G1", "Z", "Shenandoah")
                    .anyMatch(c -> runs(op, c, generation, phase));
        }
        String words = phase.replaceFirst("^Pause ", "").replaceFirst(" \\(.*", "").replace(" ", "");
        return switch (collector) {
            case "Z" -> op.equals("Z" + words + (generation == null ? ""
                    : Character.toLowerCase(generation.charAt(0)) == 'o' ? "Old"
                    : phase.contains("(Major)") ? "YoungAndOld" : "Young"));
            case "Shenandoah" -> op.startsWith("Shenandoah" + words);
            case "G1" -> op.startsWith("G1") || SHARED_OPS.contains(op);
            case "Serial" -> op.startsWith("GenCollect") || op.startsWith("Serial") || SHARED_OPS.contains(op);
            case "Parallel" -> op.startsWith("Parallel") || SHARED_OPS.contains(op);
            default -> false;
        };
    }

    /** A stop seen in the log: its window on the JVM's uptime (ns) and what it was. */
    private record Stop(long startNanos, long endNanos, String source, String label) {
    }

    /** A collector's pause line waiting for its safepoint's line: where it is, and what it says. */
    private record Collection(long line, String text, Stop stop, String generation, String phase) {
    }

    private static final class LogPass {
        final Path file;
        /** Every pause, in the order of the lines that end them. */
        final List<Stop> stops = new ArrayList<>();
        /** Collector's lines since the last safepoint line. */
        final List<Collection> pending = new ArrayList<>();
        final List<PauseProfile.Line> unreadFirst = new ArrayList<>();
        long unread;
        long lineNumber;
        long decorated;
        long lastUptimeNanos = -1;
        long resolutionNanos = -1;
        String decoration;
        String collector;

        LogPass(Path file) {
            this.file = file;
        }

        void line(String text) {
            lineNumber++;
            if (text.isBlank()) {
                return;
            }
            Matcher m = DECORATION.matcher(text);
            int end = 0;
            long uptimeNanos = -1;
            List<String> tags = new ArrayList<>();
            while (m.lookingAt()) {
                String d = m.group(1).trim();
                long t = uptime(d);
                if (t >= 0 && uptimeNanos < 0) {
                    uptimeNanos = t;
                } else if (t < 0) {
                    tags.add(d);
                }
                end = m.end();
                m.region(end, text.length());
            }
            if (end == 0) {
                unread(lineNumber, text);
                return;
            }
            if (uptimeNanos < 0) {
                throw new ProfileException(file + ":" + lineNumber + ": no uptime decoration ([1.234s], [1234ms] or "
                        + "[1234567890ns]): log with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags");
            }
            if (uptimeNanos < lastUptimeNanos - RESTART_NANOS) {
                throw new ProfileException(String.format(Locale.ROOT, "%s:%d: the uptime went back from %.3f s to %.3f s (more than 1 s):"
                        + " the file holds more than one JVM's run; split it where the JVM restarted", file, lineNumber,
                        lastUptimeNanos / 1e9, uptimeNanos / 1e9));
            }
            lastUptimeNanos = Math.max(lastUptimeNanos, uptimeNanos);
            decorated++;
            if (!message(text, text.substring(end).trim(), tags.contains("gc") || tags.contains("gc,phases"),
                    uptimeNanos)) {
                unread(lineNumber, text);
            }
        }

        /** The uptime a decoration gives, ns, or -1 when it is another decoration; notes its resolution. */
        long uptime(String d) {
            Matcher s = UPTIME_SECONDS.matcher(d);
            if (s.matches()) {
                long scale = (long) Math.pow(10, 9 - s.group(2).length());
                note("uptime", scale);
                return Long.parseLong(s.group(1)) * 1_000_000_000L + Long.parseLong(s.group(2)) * scale;
            }
            Matcher ms = UPTIME_MILLIS.matcher(d);
            if (ms.matches()) {
                note("uptimemillis", 1_000_000);
                return Long.parseLong(ms.group(1)) * 1_000_000L;
            }
            Matcher ns = UPTIME_NANOS.matcher(d);
            if (ns.matches()) {
                note("uptimenanos", 1);
                return Long.parseLong(ns.group(1));
            }
            return -1;
        }

        void note(String name, long resolution) {
            if (decoration == null) {
                decoration = name;
            }
            resolutionNanos = Math.max(resolutionNanos, resolution);
        }

        /** Reads one decorated line's message; false for a pause or safepoint line whose form it does not know. */
        boolean message(String text, String message, boolean gcTag, long uptimeNanos) {
            Matcher safepoint = SAFEPOINT.matcher(message);
            if (safepoint.matches()) {
                safepoint(safepoint.group(1), uptimeNanos - Long.parseLong(safepoint.group(2)), uptimeNanos);
                return true;
            }
            if (message.startsWith("Safepoint \"")) {
                return false;
            }
            if (!gcTag) {
                return true;
            }
            Matcher using = COLLECTOR.matcher(message);
            if (using.matches() && collector == null) {
                collector = using.group(1).equals("The Z Garbage Collector") ? "Z" : using.group(1);
                return true;
            }
            Matcher pause = GC_PAUSE.matcher(message);
            if (pause.matches()) {
                long nanos = Math.round(Double.parseDouble(pause.group(3).replace(',', '.')) * 1e6);
                String generation = pause.group(1) == null ? ""
                        : Character.toLowerCase(pause.group(1).charAt(0)) == 'y' ? " young" : " old";
                pending.add(new Collection(lineNumber, text, new Stop(uptimeNanos - nanos, uptimeNanos, "gc",
                        (collector == null ? "GC" : collector) + generation + ": " + pause.group(2)),
                        pause.group(1), pause.group(2)));
                return true;
            }
            return !PAUSE_WORD.matcher(message).find(); // a collector's pause line in a form not known here
        }

        /**
         * The safepoint {@code op} that ended at endNanos: the collector's lines since the last safepoint line
         * that it runs give it their labels; the others are not placed (unread).
         */
        void safepoint(String op, long startNanos, long endNanos) {
            List<String> labels = new ArrayList<>();
            for (Collection c : pending) {
                if (runs(op, collector, c.generation(), c.phase())) {
                    labels.add(c.stop().label());
                } else {
                    unread(c.line(), c.text());
                }
            }
            pending.clear();
            stops.add(labels.isEmpty() ? new Stop(startNanos, endNanos, "safepoint", "Safepoint \"" + op + "\"")
                    : new Stop(startNanos, endNanos, "gc", String.join(" + ", labels)));
        }

        void unread(long line, String text) {
            unread++;
            if (unreadFirst.size() < UNREAD_KEPT) {
                unreadFirst.add(new PauseProfile.Line(line, text.length() > 200 ? text.substring(0, 200) : text));
            }
        }

        PauseProfile profile() {
            if (decorated == 0) {
                throw new ProfileException(file + ": no line of a unified JVM log ([uptime][level][tags] message): log "
                        + "with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags (JDK 9 and later)");
            }
            pending.forEach(c -> stops.add(c.stop())); // no safepoint line after them: their own windows
            pending.clear();
            List<PauseProfile.Pause> pauses = new ArrayList<>();
            long earliestNanos = 0;
            for (Stop stop : stops) {
                long startNanos = Math.max(earliestNanos, stop.startNanos());
                long endNanos = stop.endNanos() + (startNanos - Math.max(0, stop.startNanos()));
                pauses.add(new PauseProfile.Pause(startNanos / 1e6, (endNanos - startNanos) / 1e6, stop.source(),
                        stop.label()));
                earliestNanos = endNanos + 1; // apart, as two stops are: a replay keeps them two windows
            }
            return new PauseProfile(PauseProfile.SCHEMA,
                    new PauseProfile.Origin("gc-log", file.toString(), collector, decoration, "jvm-start", null),
                    lastUptimeNanos / 1e6, resolutionNanos / 1e6, pauses,
                    new PauseProfile.Unread(unread, unreadFirst));
        }
    }
}
