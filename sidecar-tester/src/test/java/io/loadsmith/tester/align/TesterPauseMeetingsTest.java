package io.loadsmith.tester.align;

import io.loadsmith.tester.align.TesterPauseMeetings.Span;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The counting and the warning rule, on planted pauses and requests (milliseconds, counted from 0). */
class TesterPauseMeetingsTest {

    private static final long MS = 1_000_000L;
    private static final long NEVER = -1;

    /** A 0.3 ms safepoint, and a loop window [2000, 2005) overlapped by a safepoint [2003, 2010). */
    private static final List<Span> PAUSES = List.of(new Span(1000 * MS, 1000 * MS + 300_000),
            new Span(2000 * MS, 2005 * MS), new Span(2003 * MS, 2010 * MS));

    private static RequestRecord request(long intendedMs, long sentMs, long endMs) {
        return new RequestRecord(intendedMs * MS, sentMs < 0 ? NEVER : sentMs * MS, endMs < 0 ? NEVER : endMs * MS,
                -1, 0, endMs < 0 ? 0 : 200, endMs < 0 ? Outcome.CANCELLED : Outcome.OK);
    }

    private static TesterPauseMeetings count(List<RequestRecord> requests, long aboveMs) {
        TesterPauseMeetings.Counter counter = new TesterPauseMeetings.Counter(0, PAUSES,
                TesterPauseMeetings.DEFAULT_MIN_PAUSE_NANOS, aboveMs * MS);
        requests.forEach(counter::add);
        return counter.result();
    }

    @Test
    void a_sub_millisecond_safepoint_inside_a_stalled_request_neither_meets_nor_harms_it() {
        TesterPauseMeetings meetings = count(List.of(request(999, 999, 1099)), 50);

        assertThat(meetings).isEqualTo(new TesterPauseMeetings(0, 1, 0));
        assertThat(meetings.material()).isFalse();
    }

    @Test
    void requests_intended_inside_a_pause_or_alive_across_one_meet_it_once_each() {
        TesterPauseMeetings meetings = count(List.of(
                request(2001, 2010, 2011),   // intended inside
                request(1950, 1950, 2050),   // alive across both overlapping pauses: once
                request(1900, 1900, 2000),   // ends at the first pause's start: not met
                request(2005, NEVER, NEVER), // never sent, intended inside
                request(2010, 2010, 2011),   // intended at the union's end: not met
                request(-5, -5, 2001)),      // intended before the counted run: not counted
                50);

        assertThat(meetings.met()).isEqualTo(3);
    }

    @Test
    void a_tail_request_is_harmed_from_10_percent_of_its_corrected_latency_inside_the_union_of_the_pauses() {
        TesterPauseMeetings meetings = count(List.of(
                request(1950, 1950, 2050),   // 10 of 100 ms inside: harmed
                request(1951, 1951, 2051),   // 10 of 100 ms inside: harmed
                request(1899, 1899, 2001),   // 1 of 102 ms: met, not harmed
                request(3000, 3000, 3200)),  // none
                50);

        assertThat(meetings).isEqualTo(new TesterPauseMeetings(3, 4, 2));
    }

    @Test
    void more_than_10_percent_of_the_tail_harmed_is_material_and_exactly_10_percent_is_not() {
        assertThat(new TesterPauseMeetings(5, 10, 1).material()).isFalse();
        assertThat(new TesterPauseMeetings(5, 10, 2).material()).isTrue();
        assertThat(new TesterPauseMeetings(0, 0, 0).material()).isFalse();
    }

    @Test
    void the_union_merges_overlapping_and_touching_pauses_in_start_order() {
        assertThat(TesterPauseMeetings.union(List.of(new Span(5, 6), new Span(1, 3), new Span(3, 4), new Span(2, 2))))
                .containsExactly(new Span(1, 4), new Span(5, 6));
    }
}
