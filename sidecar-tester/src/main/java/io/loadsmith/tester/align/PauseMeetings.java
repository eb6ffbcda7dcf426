package io.loadsmith.tester.align;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * How many requests of a run met a set of windows (the tester's own pauses), counted by the stall alignment
 * ({@link StallAlignment#add}): a request meets a window when its intended send lies inside it or its
 * lifetime, from intended (or earlier actual) send to end, overlaps it. Requests intended before the counted
 * span are not counted.
 *
 * @param met       requests that met at least one window
 * @param above     requests that ended with a corrected latency ({@code end - intended}) strictly above the
 *                  given threshold
 * @param aboveMet  of those, the ones that met a window
 */
public record PauseMeetings(long met, long above, long aboveMet) {

    /** Share of {@code above} that met a window beyond which a run warns (10 %). */
    public static final double MATERIAL_SHARE = 0.10;

    /** True when more than {@link #MATERIAL_SHARE} of the requests above the threshold met a window. */
    public boolean material() {
        return above > 0 && aboveMet > MATERIAL_SHARE * above;
    }

    /**
     * Counts over a run's {@code requests.bin}; its counted span starts at the log's run start and lasts
     * {@code durationNanos}.
     *
     * @param windows      the windows, on the tester's clock (any order; their {@code held} is unused)
     * @param aboveNanos   the corrected-latency threshold of {@link #above}, nanoseconds
     */
    public static PauseMeetings count(Path requestLog, List<StallWindow> windows, long durationNanos, long aboveNanos)
            throws IOException {
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            long startNanos = records.runStartNanos();
            StallAlignment alignment = new StallAlignment(windows, startNanos, startNanos + durationNanos,
                    AlignedBins.forStall(1), 0, 0);
            long met = 0;
            long above = 0;
            long aboveMet = 0;
            while (records.hasNext()) {
                RequestRecord r = records.next();
                boolean meets = alignment.add(r.intendedNanos(), r.sentNanos(), r.endNanos());
                met += meets ? 1 : 0;
                if (r.intendedNanos() >= startNanos && r.endNanos() >= 0 && r.endNanos() - r.intendedNanos() > aboveNanos) {
                    above++;
                    aboveMet += meets ? 1 : 0;
                }
            }
            return new PauseMeetings(met, above, aboveMet);
        }
    }
}
