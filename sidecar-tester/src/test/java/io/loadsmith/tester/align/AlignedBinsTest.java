package io.loadsmith.tester.align;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AlignedBinsTest {

    private static final long MS = 1_000_000L;

    @ParameterizedTest(name = "a {0} ns stall gets {1} ns bins, {2} of them")
    @CsvSource({
            "100000000, 5000000, 60",
            "250000000, 10000000, 75",
            "1000000000, 50000000, 60",
            "10000000, 500000, 60",
            "3000000, 100000, 90",
            "1000000, 100000, 30",
            "300000000, 10000000, 90",
    })
    void the_bin_width_is_a_round_twentieth_of_the_stall(long stallNanos, long binNanos, int binCount) {
        AlignedBins bins = AlignedBins.forStall(stallNanos);
        assertThat(bins.binNanos()).isEqualTo(binNanos);
        assertThat(bins.binCount()).isEqualTo(binCount);
        assertThat(bins.fromNanos()).isEqualTo(-stallNanos);
    }

    @Test
    void the_bins_run_from_one_stall_length_before_to_two_after_the_start() {
        AlignedBins bins = AlignedBins.forStall(100 * MS);
        assertThat(bins.fromNanos()).isEqualTo(-100 * MS);
        assertThat(bins.toNanos()).isEqualTo(200 * MS);
        assertThat(bins.binOf(-100 * MS)).isZero();
        assertThat(bins.binOf(-100 * MS - 1)).isEqualTo(-1);
        assertThat(bins.binOf(0)).isEqualTo(20);
        assertThat(bins.binOf(200 * MS - 1)).isEqualTo(59);
        assertThat(bins.binOf(200 * MS)).isEqualTo(-1);
    }

    @Test
    void a_stall_length_that_is_no_multiple_of_the_bin_gets_a_last_bin_that_reaches_past_two_lengths() {
        AlignedBins bins = AlignedBins.forStall(110 * MS);
        assertThat(bins.binNanos()).isEqualTo(5 * MS);
        assertThat(bins.binCount()).isEqualTo(66);
        assertThat(bins.toNanos()).isEqualTo(220 * MS);
        AlignedBins odd = AlignedBins.forStall(130 * MS);
        assertThat(odd.binCount()).isEqualTo(78);
        AlignedBins uneven = AlignedBins.forStall(7_300_000);   // 365 us / 20 -> 200 us bins, 21.9 ms span
        assertThat(uneven.binCount()).isEqualTo(110);
        assertThat(uneven.toNanos()).isEqualTo(14_700_000);
    }
}
