package io.loadsmith.tester.align;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * How the tester's own pauses met a run's requests (docs/pauses.md, "The tester's own pauses"). Only pauses
 * of at least a minimum length count (1 ms by default: shorter ones cannot move a figure read in
 * milliseconds), taken as their union so that a moment inside two pauses counts once.
 *
 * <ul>
 * <li>A request <em>met</em> a pause when its intended send lies inside one, or its lifetime (from its
 * intended send, or an earlier actual send, to its end) overlaps one; a request that never ended: its
 * intended send only.</li>
 * <li>A request above the threshold (its corrected latency, end − intended, strictly above the corrected
 * p99) was <em>harmed</em> when at least {@link #HARMED_SHARE} of that latency lies inside pauses.</li>
 * <li>The pauses are a <em>material</em> share of the tail when more than {@link #MATERIAL_SHARE} of the
 * requests above the threshold were harmed. A 0.5 ms safepoint that happens to fall inside a 100 ms answer
 * (a stall of the service) meets that request but is 0.5 % of its latency: it does not make the tail.</li>
 * </ul>
 * Requests intended before the counted run's start are not counted.
 *
 * @param met         requests that met a pause
 * @param above       requests that ended with a corrected latency strictly above the threshold
 * @param aboveHarmed of those, the ones with at least {@link #HARMED_SHARE} of it inside pauses
 */
public record TesterPauseMeetings(long met, long above, long aboveHarmed) {

    /** Pauses shorter than this are not counted, by default (ns): the bound of the "sent late" warning. */
    public static final long DEFAULT_MIN_PAUSE_NANOS = 1_000_000L;
    /** Share of a request's corrected latency inside pauses from which it counts as harmed. */
    public static final double HARMED_SHARE = 0.10;
    /** Share of the requests above the threshold that must be harmed, strictly more, for a warning. */
    public static final double MATERIAL_SHARE = 0.10;

    /** A pause, on the tester's clock, nanoseconds. */
    public record Span(long startNanos, long endNanos) {
    }

    /** True when more than {@link #MATERIAL_SHARE} of the requests above the threshold were harmed. */
    public boolean material() {
        return above > 0 && aboveHarmed > MATERIAL_SHARE * above;
    }

    /**
     * Counts over a run's {@code requests.bin}.
     *
     * @param pauses        the pauses, any order, overlapping or not
     * @param minPauseNanos shorter pauses are left out
     * @param aboveNanos    the corrected-latency threshold (the run's corrected p99), nanoseconds
     */
    public static TesterPauseMeetings count(Path requestLog, List<Span> pauses, long minPauseNanos, long aboveNanos)
            throws IOException {
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            Counter counter = new Counter(records.runStartNanos(), pauses, minPauseNanos, aboveNanos);
            while (records.hasNext()) {
                counter.add(records.next());
            }
            return counter.result();
        }
    }

    /** The union of {@code spans}: sorted, disjoint, a span that touches or overlaps the next merged with it. */
    public static List<Span> union(List<Span> spans) {
        List<Span> sorted = new ArrayList<>(spans);
        sorted.sort(Comparator.comparingLong(Span::startNanos));
        List<Span> merged = new ArrayList<>();
        for (Span s : sorted) {
            Span last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && s.startNanos() <= last.endNanos()) {
                merged.set(merged.size() - 1, new Span(last.startNanos(), Math.max(last.endNanos(), s.endNanos())));
            } else {
                merged.add(s);
            }
        }
        return merged;
    }

    /** Counts requests one at a time, in any order. */
    public static final class Counter {
        private final long countStartNanos;
        private final long aboveNanos;
        private final long[] starts;
        private final long[] ends;
        private long met;
        private long above;
        private long aboveHarmed;

        /** Arguments as for {@link #count}; {@code countStartNanos}: the counted run's start. */
        public Counter(long countStartNanos, List<Span> pauses, long minPauseNanos, long aboveNanos) {
            this.countStartNanos = countStartNanos;
            this.aboveNanos = aboveNanos;
            List<Span> merged = union(pauses.stream().filter(p -> p.endNanos() - p.startNanos() >= minPauseNanos).toList());
            starts = merged.stream().mapToLong(Span::startNanos).toArray();
            ends = merged.stream().mapToLong(Span::endNanos).toArray();
        }

        public void add(RequestRecord r) {
            long intended = r.intendedNanos();
            if (intended < countStartNanos) {
                return;
            }
            long begin = r.sentNanos() >= 0 ? Math.min(intended, r.sentNanos()) : intended;
            long end = r.endNanos() >= 0 ? Math.max(r.endNanos(), begin) : begin;
            int k = firstEndingAfter(begin);
            boolean meets = k < starts.length && (starts[k] <= intended && intended < ends[k] || starts[k] < end);
            met += meets ? 1 : 0;
            if (r.endNanos() < 0 || r.endNanos() - intended <= aboveNanos) {
                return;
            }
            above++;
            long insideNanos = 0;
            for (int i = firstEndingAfter(intended); i < starts.length && starts[i] < r.endNanos(); i++) {
                insideNanos += Math.min(ends[i], r.endNanos()) - Math.max(starts[i], intended);
            }
            if (insideNanos >= HARMED_SHARE * (r.endNanos() - intended)) {
                aboveHarmed++;
            }
        }

        /** The index of the first pause that ends after {@code nanos} (the pauses' length when none). */
        private int firstEndingAfter(long nanos) {
            int lo = 0;
            int hi = ends.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ends[mid] <= nanos) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        public TesterPauseMeetings result() {
            return new TesterPauseMeetings(met, above, aboveHarmed);
        }
    }
}
