package io.loadsmith.tester.schedule;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class ArrivalScheduleTest {

    static final long S = 1_000_000_000L;

    static long[] offsets(ArrivalSchedule schedule) {
        List<Long> all = new ArrayList<>();
        long offset;
        while ((offset = schedule.nextOffsetNanos()) >= 0) {
            all.add(offset);
        }
        return all.stream().mapToLong(Long::longValue).toArray();
    }

    /** Kolmogorov–Smirnov distance between the gaps and the exponential distribution of the given rate (also used by the CLI's shard tests). */
    public static double ksDistanceToExponential(long[] offsets, double ratePerSecond) {
        double[] gaps = new double[offsets.length];
        long previous = 0;
        for (int i = 0; i < offsets.length; i++) {
            gaps[i] = (offsets[i] - previous) / 1e9;
            previous = offsets[i];
        }
        Arrays.sort(gaps);
        int n = gaps.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double cdf = 1 - Math.exp(-ratePerSecond * gaps[i]);
            d = Math.max(d, Math.max(cdf - i / (double) n, (i + 1) / (double) n - cdf));
        }
        return d;
    }

    @Test
    void poisson_gaps_pass_a_seeded_kolmogorov_smirnov_test() {
        long[] offsets = offsets(ArrivalSchedule.poisson(1000, 20 * S, 42));
        // 1% critical value of the one-sample KS statistic, large-n form
        double critical = 1.628 / Math.sqrt(offsets.length);

        assertThat(offsets.length).isBetween(19_500, 20_500);
        assertThat(ksDistanceToExponential(offsets, 1000)).isLessThan(critical);
    }

    @Test
    void evenly_spaced_gaps_fail_the_same_test() {
        long[] offsets = offsets(ArrivalSchedule.constant(1000, 20 * S));

        assertThat(ksDistanceToExponential(offsets, 1000)).isGreaterThan(0.3);
    }

    @Test
    void the_same_seed_gives_the_same_schedule_and_another_seed_another() {
        assertThat(offsets(ArrivalSchedule.poisson(500, 5 * S, 7))).isEqualTo(offsets(ArrivalSchedule.poisson(500, 5 * S, 7)));
        assertThat(offsets(ArrivalSchedule.poisson(500, 5 * S, 7))).isNotEqualTo(offsets(ArrivalSchedule.poisson(500, 5 * S, 8)));
    }

    @Test
    void constant_arrivals_are_computed_from_the_index_without_drift() {
        long[] offsets = offsets(ArrivalSchedule.constant(3, 100 * S));

        assertThat(offsets).hasSize(300);
        assertThat(offsets[1]).isEqualTo(333_333_333L);
        assertThat(offsets[2]).isEqualTo(666_666_667L);
        assertThat(offsets[299]).isEqualTo(99_666_666_667L);
    }

    @Test
    void poisson_offsets_are_exact_sums_of_integer_gaps_from_the_seeded_stream() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        long[] offsets = offsets(ArrivalSchedule.poisson(100, S, 3));
        long offset = 0;
        for (long actual : offsets) {
            offset += Math.round(-StrictMath.log1p(-random.nextDouble()) * 1e7);
            assertThat(actual).isEqualTo(offset);
        }
    }

    static final List<Stage> RAMP = List.of(
            new Stage(10 * S, 1000),   // 0 -> 1000/s
            new Stage(5 * S, 1000),    // constant 1000/s
            new Stage(5 * S, 200));    // 1000 -> 200/s

    static long countIn(long[] offsets, long from, long to) {
        return Arrays.stream(offsets).filter(o -> o >= from && o < to).count();
    }

    @Test
    void a_poisson_ramp_counts_per_second_match_the_integrated_rate() {
        RampSchedule expected = new RampSchedule(0, RAMP, true, 11);
        long[] offsets = offsets(ArrivalSchedule.stages(0, RAMP, true, 11));
        double chiSquare = 0;
        for (int second = 0; second < 20; second++) {
            double mean = expected.integratedRate((second + 1) * S) - expected.integratedRate(second * S);
            long count = countIn(offsets, second * S, (second + 1) * S);
            assertThat(Math.abs(count - mean)).as("second %d: %d arrivals, %s expected", second, count, mean)
                    .isLessThan(4 * Math.sqrt(mean));
            chiSquare += (count - mean) * (count - mean) / mean;
        }
        // 20 windows: the 0.1% critical value of chi-square with 20 degrees of freedom is 45.3
        assertThat(chiSquare).isLessThan(45.3);
        assertThat(expected.integratedRate(20 * S)).isEqualTo(5000 + 5000 + 3000);
    }

    @Test
    void a_constant_ramp_puts_exactly_the_integrated_rate_in_each_window() {
        RampSchedule expected = new RampSchedule(0, RAMP, false, 0);
        long[] offsets = offsets(ArrivalSchedule.stages(0, RAMP, false, 0));

        assertThat(offsets).hasSize(13_000);
        for (int second = 0; second < 20; second++) {
            long exact = (long) Math.ceil(expected.integratedRate((second + 1) * S) - 1e-9)
                    - (long) Math.ceil(expected.integratedRate(second * S) - 1e-9);
            assertThat(countIn(offsets, second * S, (second + 1) * S)).as("second %d", second)
                    .isBetween(exact - 1, exact + 1);
        }
        // the rising stage: 0.5·100·t² arrivals by t seconds, so 50 in the first second, 150 in the second
        assertThat(countIn(offsets, 0, S)).isEqualTo(50);
        assertThat(countIn(offsets, S, 2 * S)).isEqualTo(150);
    }

    @Test
    void per_arrival_streams_do_not_depend_on_the_order_arrivals_are_drawn() {
        ArrivalStreams journeys = ArrivalStreams.of(7, "journey");
        double forward5 = 0;
        for (long k = 0; k < 10; k++) {
            double u = journeys.uniform(k);
            if (k == 5) {
                forward5 = u;
            }
        }
        assertThat(ArrivalStreams.of(7, "journey").uniform(5)).isEqualTo(forward5);
        assertThat(ArrivalStreams.of(7, "row").uniform(5)).isNotEqualTo(forward5);
        assertThat(ArrivalStreams.of(8, "journey").uniform(5)).isNotEqualTo(forward5);
    }

    @Test
    void a_per_arrival_bounded_int_is_the_first_draw_of_the_arrivals_generator() {
        ArrivalStreams rows = ArrivalStreams.of(3, "feeder:buy");
        int[] bounds = {1, 2, 3, 7, 10, 64, 1000, 1 << 20, 1_000_003, (1 << 30) + 1, Integer.MAX_VALUE};
        for (int bound : bounds) {
            for (long k = 0; k < 2_000; k++) {
                assertThat(rows.nextInt(k, bound)).as("bound %d, arrival %d", bound, k)
                        .isEqualTo(rows.random(k).nextInt(bound));
            }
        }
        assertThatThrownBy(() -> rows.nextInt(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void per_arrival_uniforms_are_uniform() {
        ArrivalStreams marks = ArrivalStreams.of(1, "shard");
        int[] bins = new int[10];
        for (long k = 0; k < 100_000; k++) {
            bins[(int) (marks.uniform(k) * 10)]++;
        }
        assertThat(java.util.Arrays.stream(bins).boxed().toList()).allSatisfy(b -> assertThat(b).isBetween(9_600, 10_400));
    }
}
