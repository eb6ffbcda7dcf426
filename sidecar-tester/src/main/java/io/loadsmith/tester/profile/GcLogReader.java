package io.loadsmith.tester.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the pauses of a JDK's unified GC log ({@code -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags}, JDK 17
 * to 25; {@code uptime}, {@code uptimemillis} or {@code uptimenanos} decorations) into a {@link PauseProfile}
 * whose offset 0 is the JVM's start.
 *
 * <p>Both kinds of line are printed when their pause ends. A safepoint line ({@code Safepoint "Op", ...,
 * Total: N ns}) gives the whole stop, time to reach the safepoint included; a collector's pause line ({@code
 * GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.456ms}, ZGC's {@code y: Pause Mark Start
 * 0.012ms}) gives what the collector did inside one. A pause inside a safepoint becomes one pause with the
 * safepoint's window and the collector's label; either alone is kept as it is. Every other decorated line is
 * read and left. A line without a decoration, and a safepoint or pause line of a form not known here (no
 * total, no duration), is counted as unread, with the first few kept: never dropped unseen.
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

    /** A stop seen in the log: its window on the JVM's uptime (ns) and what it was. */
    private record Stop(long startNanos, long endNanos, String source, String label) {
    }

    private static final class LogPass {
        final Path file;
        final List<Stop> safepoints = new ArrayList<>();
        final List<Stop> collections = new ArrayList<>();
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
                unread(text);
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
            if (!message(text.substring(end).trim(), tags.contains("gc") || tags.contains("gc,phases"), uptimeNanos)) {
                unread(text);
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
        boolean message(String message, boolean gcTag, long uptimeNanos) {
            Matcher safepoint = SAFEPOINT.matcher(message);
            if (safepoint.matches()) {
                long total = Long.parseLong(safepoint.group(2));
                safepoints.add(new Stop(uptimeNanos - total, uptimeNanos, "safepoint",
                        "Safepoint \"" + safepoint.group(1) + "\""));
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
                collections.add(new Stop(uptimeNanos - nanos, uptimeNanos, "gc",
                        (collector == null ? "GC" : collector) + generation + ": " + pause.group(2)));
                return true;
            }
            return !PAUSE_WORD.matcher(message).find(); // a collector's pause line in a form not known here
        }

        void unread(String text) {
            unread++;
            if (unreadFirst.size() < UNREAD_KEPT) {
                unreadFirst.add(new PauseProfile.Line(lineNumber, text.length() > 200 ? text.substring(0, 200) : text));
            }
        }

        PauseProfile profile() {
            if (decorated == 0) {
                throw new ProfileException(file + ": no line of a unified JVM log ([uptime][level][tags] message): log "
                        + "with -Xlog:gc*,safepoint:file=gc.log:uptime,level,tags (JDK 9 and later)");
            }
            List<PauseProfile.Pause> pauses = new ArrayList<>();
            safepoints.sort(Comparator.comparingLong(Stop::endNanos)); // lines a little out of order
            boolean[] labelled = new boolean[safepoints.size()];
            for (Stop gc : collections) {
                int inside = enclosing(gc, resolutionNanos);
                if (inside < 0) {
                    pauses.add(pause(gc));
                    continue;
                }
                Stop sp = safepoints.get(inside);
                String label = labelled[inside] ? sp.label() + " + " + gc.label() : gc.label();
                safepoints.set(inside, new Stop(sp.startNanos(), sp.endNanos(), gc.source(), label));
                labelled[inside] = true;
            }
            safepoints.forEach(sp -> pauses.add(pause(sp)));
            pauses.sort(Comparator.comparingDouble(PauseProfile.Pause::offsetMs));
            return new PauseProfile(PauseProfile.SCHEMA,
                    new PauseProfile.Origin("gc-log", file.toString(), collector, decoration, "jvm-start", null),
                    lastUptimeNanos / 1e6, resolutionNanos / 1e6, pauses,
                    new PauseProfile.Unread(unread, unreadFirst));
        }

        /**
         * The safepoint whose window holds gc (within tolerance): the first to end at or after gc's end, found
         * by halving (safepoint lines come in the order their stops ended); -1 when it does not hold gc.
         */
        int enclosing(Stop gc, long tolerance) {
            int low = 0;
            int high = safepoints.size();
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (safepoints.get(mid).endNanos() + tolerance < gc.endNanos()) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return low < safepoints.size() && safepoints.get(low).startNanos() - tolerance <= gc.startNanos() ? low : -1;
        }

        static PauseProfile.Pause pause(Stop stop) {
            return new PauseProfile.Pause(Math.max(0, stop.startNanos()) / 1e6,
                    (stop.endNanos() - Math.max(0, stop.startNanos())) / 1e6, stop.source(), stop.label());
        }
    }
}
