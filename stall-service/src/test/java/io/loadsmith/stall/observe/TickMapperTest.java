package io.loadsmith.stall.observe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TickMapperTest {

    @Test
    void a_tick_between_two_samples_is_interpolated_at_their_midpoints() {
        TickMapper mapper = new TickMapper();
        mapper.add(1_000, 10_000, 10_010);      // midpoint 10_005
        mapper.add(3_000, 20_000, 20_010);      // midpoint 20_005: 5 ns a tick

        assertThat(mapper.ready()).isTrue();
        assertThat(mapper.toNanos(2_000)).isEqualTo(15_005);
        assertThat(mapper.toNanos(1_000)).isEqualTo(10_005);
    }

    @Test
    void a_tick_outside_the_samples_is_extrapolated_from_the_nearest_at_the_rate_of_the_widest_span() {
        TickMapper mapper = new TickMapper();
        mapper.add(1_000, 10_000, 10_010);
        mapper.add(2_000, 16_000, 16_010);      // 6 ns a tick between the first two
        mapper.add(5_000, 30_000, 30_010);      // 5 ns a tick from the first to the last

        assertThat(mapper.toNanos(6_000)).isEqualTo(35_005);
        assertThat(mapper.toNanos(0)).isEqualTo(5_005);
        assertThat(mapper.covers(5_000)).isTrue();
        assertThat(mapper.covers(5_001)).isFalse();
    }

    @Test
    void a_new_tightest_sample_evicts_the_ones_it_makes_too_wide() {
        TickMapper mapper = new TickMapper();
        mapper.add(1_000, 0, 5_000_000);        // a first commit that took 5 ms
        mapper.add(2_000, 10_000_000, 10_000_100);
        mapper.add(3_000, 20_000_000, 20_000_100);

        assertThat(mapper.toNanos(1_000)).isEqualTo(50); // not 2_500_000, the wide sample's midpoint
    }

    @Test
    void a_sample_much_looser_than_the_tightest_is_not_kept() {
        TickMapper mapper = new TickMapper();
        mapper.add(1_000, 10_000, 10_010);
        boolean loose = mapper.add(2_000, 100_000, 200_000);

        assertThat(loose).isFalse();
        assertThat(mapper.ready()).isFalse();
    }

    @Test
    void one_sample_is_not_enough() {
        TickMapper mapper = new TickMapper();
        mapper.add(1_000, 10_000, 10_010);

        assertThat(mapper.ready()).isFalse();
    }
}
