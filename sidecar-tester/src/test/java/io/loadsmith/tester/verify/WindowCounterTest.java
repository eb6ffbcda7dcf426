package io.loadsmith.tester.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.transport.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-window counts of docs/alignment.md on requests placed at the edges of one window [100, 200). */
class WindowCounterTest {

    private static final Window WINDOW = new Window(0, 100, 200, null);

    private static WindowCounter counted(RequestRecord... records) {
        WindowCounter counter = new WindowCounter(List.of(WINDOW), 0, 1000);
        for (RequestRecord r : records) {
            counter.add(r);
        }
        return counter;
    }

    private static RequestRecord request(long intended, long sent, long end) {
        return new RequestRecord(intended, sent, end, 0, 0, 200, end < 0 ? Outcome.CANCELLED : Outcome.OK);
    }

    @Test
    void a_send_at_the_start_is_inside_and_a_send_at_the_end_is_not() {
        WindowCounter counter = counted(request(100, 100, 150), request(200, 200, 250));

        assertThat(counter.sentDuring[0]).isEqualTo(1);
        assertThat(counter.intendedDuring[0]).isEqualTo(1);
        assertThat(counter.overlapping[0]).isEqualTo(1);
    }

    @Test
    void a_request_ending_at_the_start_was_not_in_flight_and_one_ending_after_it_was() {
        WindowCounter counter = counted(request(50, 50, 100), request(50, 60, 101));

        assertThat(counter.inFlightAtStart[0]).isEqualTo(1);
        assertThat(counter.overlapping[0]).isEqualTo(1);
    }

    @Test
    void a_request_due_inside_but_sent_after_overlaps_from_its_intended_send() {
        WindowCounter counter = counted(request(150, 250, 260));

        assertThat(counter.intendedDuring[0]).isEqualTo(1);
        assertThat(counter.sentDuring[0]).isZero();
        assertThat(counter.overlapping[0]).isEqualTo(1);
        assertThat(counter.overlappingMet).isEqualTo(1);
    }

    @Test
    void a_request_never_sent_counts_only_as_intended_and_one_never_ended_is_alive_to_the_end() {
        WindowCounter counter = counted(request(150, -1, -1), request(10, 20, -1));

        assertThat(counter.intendedDuring[0]).isEqualTo(1);
        assertThat(counter.inFlightAtStart[0]).isEqualTo(1);
        assertThat(counter.overlapping[0]).isEqualTo(1);
        assertThat(counter.sent).isEqualTo(1);
    }

    @Test
    void a_window_past_the_counted_span_is_not_met_and_its_requests_are_not_in_the_share() {
        WindowCounter counter = new WindowCounter(List.of(WINDOW), 0, 199);
        counter.add(request(150, 150, 160));

        assertThat(counter.met(0)).isFalse();
        assertThat(counter.metCount()).isZero();
        assertThat(counter.overlapping[0]).isEqualTo(1);
        assertThat(counter.overlappingMet).isZero();
        assertThat(counter.sentDuringMet()).isZero();
    }

    @Test
    void overlapping_windows_met_cover_their_time_once_and_a_window_not_met_not_at_all() {
        WindowCounter counter = new WindowCounter(List.of(new Window(0, 100, 200, null), new Window(1, 150, 260, null),
                new Window(2, 300, 310, null), new Window(3, 900, 1100, null)), 0, 1000);

        assertThat(counter.coveredMetNanos()).isEqualTo(170);
    }

    @Test
    void a_request_served_by_one_replica_counts_only_for_that_replicas_windows_and_one_of_none_for_both() {
        Window first = new Window(0, 100, 200, null, "http://a");
        Window second = new Window(0, 100, 200, null, "http://b");
        WindowCounter counter = new WindowCounter(List.of(first, second), 0, 1000, Map.of(7, "http://a", 8, "http://b"));
        counter.add(new RequestRecord(110, 110, 120, 0, 0, 200, Outcome.OK, 7));
        counter.add(new RequestRecord(130, 130, 140, 0, 0, 200, Outcome.OK, 0));
        counter.add(new RequestRecord(150, 150, 160, 0, 0, 200, Outcome.OK, 9));

        assertThat(counter.sentDuring).containsExactly(3, 2);
        assertThat(counter.overlapping).containsExactly(3, 2);
    }
}
