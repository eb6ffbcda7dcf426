package io.loadsmith.tester.align;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StallAlignmentTest {

    private static final long MS = 1_000_000L;

    /** One stall, [100 ms, 200 ms), in a counted span of [0, 1 s). */
    private static StallAlignment oneStall() {
        return new StallAlignment(List.of(new StallWindow(0, 100 * MS, 200 * MS, 7)), 0, 1000 * MS,
                AlignedBins.forStall(100 * MS), 100, 1);
    }

    @Test
    void a_send_at_the_start_of_the_window_is_inside_and_one_at_its_end_is_not() {
        StallAlignment alignment = oneStall();
        alignment.add(99 * MS, 99 * MS, 99 * MS + 1);
        alignment.add(100 * MS, 100 * MS, 100 * MS + 1);
        alignment.add(200 * MS - 1, 200 * MS - 1, 200 * MS);
        alignment.add(200 * MS, 200 * MS, 200 * MS + 1);

        StallCount stall = alignment.finish().stalls().get(0);

        assertThat(stall.sentDuring()).isEqualTo(2);
        assertThat(stall.intendedDuring()).isEqualTo(2);
    }

    @Test
    void a_request_sent_before_the_start_and_ending_after_it_is_in_flight_at_the_start() {
        StallAlignment alignment = oneStall();
        alignment.add(50 * MS, 50 * MS, 201 * MS);   // in flight, held through the stall
        alignment.add(60 * MS, 60 * MS, 100 * MS);   // ended exactly at the start: not in flight, not overlapping
        alignment.add(100 * MS, 100 * MS, 201 * MS); // sent at the start: inside, not in flight

        StallCount stall = alignment.finish().stalls().get(0);

        assertThat(stall.inFlightAtStart()).isEqualTo(1);
        assertThat(stall.overlapping()).isEqualTo(2);
        assertThat(stall.sentDuring()).isEqualTo(1);
    }

    @Test
    void a_request_intended_inside_the_window_but_sent_after_it_overlaps_it_and_counts_as_intended_during() {
        StallAlignment alignment = oneStall();
        alignment.add(150 * MS, 210 * MS, 211 * MS);

        StallCount stall = alignment.finish().stalls().get(0);

        assertThat(stall.intendedDuring()).isEqualTo(1);
        assertThat(stall.sentDuring()).isZero();
        assertThat(stall.inFlightAtStart()).isZero();
        assertThat(stall.overlapping()).isEqualTo(1);
    }

    @Test
    void a_request_never_sent_counts_only_as_intended_during() {
        StallAlignment alignment = oneStall();
        alignment.add(150 * MS, -1, -1);

        RunAlignment result = alignment.finish();

        assertThat(result.stalls().get(0)).extracting(StallCount::intendedDuring, StallCount::sentDuring,
                StallCount::overlapping).containsExactly(1L, 0L, 0L);
        assertThat(result.summary().sentRequests()).isZero();
    }

    @Test
    void a_request_that_never_ended_overlaps_every_later_stall() {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 100 * MS, 200 * MS, 0),
                new StallWindow(1, 500 * MS, 600 * MS, 0)), 0, 1000 * MS, AlignedBins.forStall(100 * MS), 0, 1);
        alignment.add(50 * MS, 50 * MS, -1);

        List<StallCount> stalls = alignment.finish().stalls();

        assertThat(stalls).extracting(StallCount::overlapping).containsExactly(1L, 1L);
        assertThat(stalls).extracting(StallCount::inFlightAtStart).containsExactly(1L, 1L);
    }

    @Test
    void requests_intended_before_the_counted_span_are_not_counted() {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 100 * MS, 200 * MS, 0)),
                10 * MS, 1000 * MS, AlignedBins.forStall(100 * MS), 0, 1);
        alignment.add(9 * MS, 150 * MS, 160 * MS);

        RunAlignment result = alignment.finish();

        assertThat(result.stalls().get(0).sentDuring()).isZero();
        assertThat(result.summary().sentRequests()).isZero();
    }

    @Test
    void a_stall_outside_the_counted_span_is_listed_but_not_met() {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 100 * MS, 200 * MS, 0),
                new StallWindow(1, 950 * MS, 1050 * MS, 0)), 0, 1000 * MS, AlignedBins.forStall(100 * MS), 0, 1);
        alignment.add(120 * MS, 120 * MS, 121 * MS);
        alignment.add(960 * MS, 960 * MS, 961 * MS);

        RunAlignment result = alignment.finish();

        assertThat(result.stalls()).extracting(StallCount::met).containsExactly(true, false);
        assertThat(result.stalls()).extracting(StallCount::sentDuring).containsExactly(1L, 1L);
        assertThat(result.summary().stallsMet()).isEqualTo(1);
        assertThat(result.summary().sentDuringTotal()).isEqualTo(1);
    }

    @Test
    void the_share_of_requests_that_overlapped_a_stall_decides_whether_a_p99_can_see_it() {
        StallAlignment one = oneStall();
        StallAlignment two = oneStall();
        for (int i = 0; i < 150; i++) {
            long sent = 300 * MS + i * MS;
            one.add(sent, sent, sent + MS / 2);
            two.add(sent, sent, sent + MS / 2);
        }
        one.add(150 * MS, 150 * MS, 201 * MS);   // 1 of 151 overlaps: 0.66%
        two.add(150 * MS, 150 * MS, 201 * MS);
        two.add(160 * MS, 160 * MS, 201 * MS);   // 2 of 152 overlap: 1.3%

        StallSummary justOne = one.finish().summary();
        StallSummary three = two.finish().summary();

        assertThat(justOne.overlappingRequests()).isEqualTo(1);
        assertThat(justOne.overlappingShare()).isEqualTo(1 / 151.0);
        assertThat(justOne.p99CanSeeStalls()).isFalse();
        assertThat(three.overlappingRequests()).isEqualTo(2);
        assertThat(three.overlappingShare()).isEqualTo(2 / 152.0);
        assertThat(three.p99CanSeeStalls()).isTrue();
    }

    @Test
    void sends_are_binned_by_time_from_stall_start_and_averaged_over_the_stalls_met() {
        AlignedBins bins = AlignedBins.forStall(100 * MS);
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 1000 * MS, 1100 * MS, 0),
                new StallWindow(1, 2000 * MS, 2100 * MS, 0)), 0, 3000 * MS, bins, 0, 1);
        alignment.add(900 * MS, 900 * MS, 901 * MS);      // -100 ms: first bin of stall 0
        alignment.add(1002 * MS, 1002 * MS, 1100 * MS);   // +2 ms: bin 20
        alignment.add(2004 * MS, 2004 * MS, 2100 * MS);   // +4 ms: bin 20 of stall 1
        alignment.add(2199 * MS, 2199 * MS, 2200 * MS);   // +199 ms: last bin
        alignment.add(2200 * MS, 2200 * MS, 2201 * MS);   // +200 ms: past the bins
        alignment.add(899 * MS, 899 * MS, 900 * MS);      // -101 ms: before the bins

        double[] perBin = alignment.finish().sendsPerBin();

        assertThat(perBin).hasSize(60);
        assertThat(perBin[0]).isEqualTo(0.5);
        assertThat(perBin[20]).isEqualTo(1.0);
        assertThat(perBin[59]).isEqualTo(0.5);
        assertThat(sum(perBin)).isEqualTo(2.0);
    }

    @Test
    void a_send_near_two_close_stalls_is_binned_for_both() {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 1000 * MS, 1100 * MS, 0),
                new StallWindow(1, 1200 * MS, 1300 * MS, 0)), 0, 3000 * MS, AlignedBins.forStall(100 * MS), 0, 1);
        alignment.add(1150 * MS, 1150 * MS, 1151 * MS);   // +150 ms from stall 0, -50 ms from stall 1

        double[] perBin = alignment.finish().sendsPerBin();

        assertThat(perBin[50]).isEqualTo(0.5);
        assertThat(perBin[10]).isEqualTo(0.5);
        assertThat(sum(perBin)).isEqualTo(1.0);
    }

    @Test
    void the_scatter_pairs_send_offset_with_corrected_latency_and_is_capped_reproducibly() {
        RunAlignment all = scatterOf(100);
        RunAlignment capped = scatterOf(5);
        RunAlignment again = scatterOf(5);

        assertThat(all.scatter()).hasSize(30);   // the sends from -100 ms up to +190 ms
        assertThat(all.scatter().get(0)).isEqualTo(new ScatterPoint(-100 * MS, 3 * MS));
        assertThat(capped.scatter()).hasSize(5).isEqualTo(again.scatter()).isSubsetOf(all.scatter());
        assertThat(capped.scatter()).isSortedAccordingTo(
                (a, b) -> Long.compare(a.offsetNanos(), b.offsetNanos()));
    }

    private static RunAlignment scatterOf(int cap) {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 1000 * MS, 1100 * MS, 0)),
                0, 3000 * MS, AlignedBins.forStall(100 * MS), cap, 42);
        for (int i = 0; i < 40; i++) {
            long sent = 900 * MS + i * 10 * MS;          // -100 ms .. +290 ms, bins end at +200 ms
            alignment.add(sent - 2 * MS, sent, sent + MS);
        }
        alignment.add(100 * MS, 100 * MS, 101 * MS);     // far from the stall: not drawn
        return alignment.finish();
    }

    @Test
    void the_held_count_of_the_agent_is_kept_beside_the_tester_counts() {
        assertThat(oneStall().finish().stalls().get(0).held()).isEqualTo(7);
    }

    @Test
    void a_run_that_met_no_stall_has_flat_zero_bins_and_a_zero_share() {
        StallAlignment alignment = new StallAlignment(List.of(), 0, 1000 * MS, AlignedBins.forStall(100 * MS), 10, 1);
        alignment.add(10 * MS, 10 * MS, 11 * MS);

        RunAlignment result = alignment.finish();

        assertThat(result.summary()).isEqualTo(new StallSummary(0, 0, 0.0, false, 1, 0));
        assertThat(sum(result.sendsPerBin())).isZero();
        assertThat(result.scatter()).isEmpty();
    }

    @Test
    void adding_after_finish_is_refused() {
        StallAlignment alignment = oneStall();
        alignment.finish();
        assertThatThrownBy(() -> alignment.add(1, 1, 2)).isInstanceOf(IllegalStateException.class);
    }

    private static double sum(double[] values) {
        double total = 0;
        for (double value : values) {
            total += value;
        }
        return total;
    }

    /** Replica 0's window [100 ms, 200 ms) and replica 1's [150 ms, 250 ms), in a counted span of [0, 1 s). */
    private static StallAlignment twoReplicas() {
        return new StallAlignment(List.of(new StallWindow(0, 100 * MS, 200 * MS, 0, 0),
                new StallWindow(0, 150 * MS, 250 * MS, 0, 1)), 0, 1000 * MS, AlignedBins.forStall(100 * MS), 0, 1);
    }

    @Test
    void a_request_served_by_one_replica_counts_only_for_that_replicas_window() {
        StallAlignment alignment = twoReplicas();
        alignment.add(160 * MS, 160 * MS, 170 * MS, 1);

        List<StallCount> stalls = alignment.finish().stalls();

        assertThat(stalls.get(0).sentDuring()).isZero();
        assertThat(stalls.get(0).intendedDuring()).isZero();
        assertThat(stalls.get(0).overlapping()).isZero();
        assertThat(stalls.get(1).sentDuring()).isEqualTo(1);
        assertThat(stalls.get(1).intendedDuring()).isEqualTo(1);
        assertThat(stalls.get(1).overlapping()).isEqualTo(1);
        assertThat(stalls.get(1).replica()).isEqualTo(1);
    }

    @Test
    void a_request_that_names_no_replica_counts_against_every_replicas_window() {
        StallAlignment alignment = twoReplicas();
        alignment.add(160 * MS, 160 * MS, 170 * MS, StallWindow.NO_REPLICA);
        alignment.add(120 * MS, 120 * MS, 130 * MS);

        RunAlignment result = alignment.finish();

        assertThat(result.stalls()).extracting(StallCount::sentDuring).containsExactly(2L, 1L);
        assertThat(result.stalls()).extracting(StallCount::overlapping).containsExactly(2L, 1L);
        assertThat(result.summary().sentDuringTotal()).isEqualTo(3);
        assertThat(result.summary().overlappingRequests()).isEqualTo(2);
    }

    @Test
    void a_request_in_flight_at_the_start_of_another_replicas_stall_is_not_in_flight_for_it() {
        StallAlignment alignment = twoReplicas();
        alignment.add(140 * MS, 140 * MS, 240 * MS, 0);

        List<StallCount> stalls = alignment.finish().stalls();

        assertThat(stalls.get(0).sentDuring()).isEqualTo(1);
        assertThat(stalls.get(1).inFlightAtStart()).isZero();
        assertThat(stalls.get(1).overlapping()).isZero();
    }
}
