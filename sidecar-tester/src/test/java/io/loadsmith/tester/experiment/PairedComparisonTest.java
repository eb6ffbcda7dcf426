package io.loadsmith.tester.experiment;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PairedComparisonTest {

    @Test
    void arms_whose_every_difference_has_one_sign_and_whose_values_do_not_overlap_are_told_apart() {
        PairedComparison pair = PairedComparison.of("open", "closed-1", "p99", true,
                Map.of(1, 84.0, 2, 90.0, 3, 80.0), Map.of(1, 1.0, 2, 0.9, 3, 1.1));

        assertThat(pair.rounds()).containsExactly(1, 2, 3);
        assertThat(pair.differencesMs()).containsExactly(83.0, 89.1, 78.9);
        assertThat(pair.toldApart()).isTrue();
    }

    @Test
    void one_difference_of_the_other_sign_means_not_told_apart() {
        PairedComparison pair = PairedComparison.of("a", "b", "p99", false,
                Map.of(1, 2.0, 2, 3.0, 3, 1.0), Map.of(1, 1.0, 2, 2.0, 3, 1.5));

        assertThat(pair.differencesMs()).containsExactly(1.0, 1.0, -0.5);
        assertThat(pair.toldApart()).isFalse();
    }

    @Test
    void overlapping_values_are_not_told_apart_even_when_every_difference_has_one_sign() {
        // a is above b in every round, but a's lowest (2.0) is below b's highest (2.5)
        PairedComparison pair = PairedComparison.of("a", "b", "p99", false,
                Map.of(1, 2.0, 2, 3.0), Map.of(1, 1.0, 2, 2.5));

        assertThat(pair.differencesMs()).containsExactly(1.0, 0.5);
        assertThat(pair.toldApart()).isFalse();
    }

    @Test
    void a_zero_difference_or_a_single_round_never_tells_two_arms_apart() {
        assertThat(PairedComparison.of("a", "b", "p99", false, Map.of(1, 1.0, 2, 5.0), Map.of(1, 1.0, 2, 0.5))
                .toldApart()).isFalse();
        assertThat(PairedComparison.of("a", "b", "p99", false, Map.of(1, 9.0), Map.of(1, 1.0)).toldApart()).isFalse();
    }

    @Test
    void rounds_only_one_arm_ran_are_left_out() {
        PairedComparison pair = PairedComparison.of("a", "b", "p99", false,
                Map.of(1, 5.0, 2, 6.0, 3, 7.0), Map.of(1, 1.0, 3, 2.0));

        assertThat(pair.rounds()).containsExactly(1, 3);
        assertThat(pair.differencesMs()).containsExactly(4.0, 5.0);
        assertThat(pair.toldApart()).isTrue();
    }

    @Test
    void the_run_order_rotates_by_one_place_per_round() {
        List<String> base = List.of("a", "b", "c");
        assertThat(RunOrder.forRound(base, 1)).containsExactly("a", "b", "c");
        assertThat(RunOrder.forRound(base, 2)).containsExactly("b", "c", "a");
        assertThat(RunOrder.forRound(base, 3)).containsExactly("c", "a", "b");
        assertThat(RunOrder.forRound(base, 4)).containsExactly("a", "b", "c");
    }

    @Test
    void a_sweep_finds_the_highest_rate_within_the_bound_per_round_and_in_every_round() {
        RateSweep sweep = RateSweep.of(20.0, "p99", Map.of(
                100.0, Map.of(1, 5.0, 2, 6.0, 3, 5.5),
                200.0, Map.of(1, 12.0, 2, 25.0, 3, 15.0),
                300.0, Map.of(1, 19.0, 2, 18.0, 3, 40.0)), List.of(1, 2, 3));

        assertThat(sweep.rates()).containsExactly(100.0, 200.0, 300.0);
        assertThat(sweep.roundsWithin()).containsExactly(3, 2, 2);
        // round 2: 200/s failed, so 300/s does not count although it was within the bound
        assertThat(sweep.highestPerRound()).containsExactly(300.0, 100.0, 200.0);
        assertThat(sweep.highestEveryRound()).isEqualTo(100.0);
    }

    @Test
    void a_sweep_where_even_the_lowest_rate_fails_has_no_highest_rate() {
        RateSweep sweep = RateSweep.of(1.0, "p99", Map.of(100.0, Map.of(1, 5.0)), List.of(1));
        assertThat(sweep.highestPerRound()).containsExactly((Double) null);
        assertThat(sweep.highestEveryRound()).isNull();
    }
}
