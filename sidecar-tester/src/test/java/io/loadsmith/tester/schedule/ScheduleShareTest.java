package io.loadsmith.tester.schedule;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import static io.loadsmith.tester.schedule.ArrivalScheduleTest.S;
import static io.loadsmith.tester.schedule.ArrivalScheduleTest.ksDistanceToExponential;
import static io.loadsmith.tester.schedule.ArrivalScheduleTest.offsets;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScheduleShareTest {

    static final ArrivalStreams MARKS = ArrivalStreams.of(42, "loop");
    static final List<Stage> RAMP = List.of(new Stage(5 * S, 2000), new Stage(5 * S, 2000), new Stage(5 * S, 100));

    static long[] union(Supplier<ArrivalSchedule> whole, int shares, ArrivalStreams marks) {
        LongStream all = LongStream.empty();
        for (int i = 0; i < shares; i++) {
            all = LongStream.concat(all, Arrays.stream(offsets(whole.get().share(i, shares, marks))));
        }
        return all.sorted().toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void the_shares_of_a_poisson_run_together_are_the_one_schedule_to_the_nanosecond(int shares) {
        Supplier<ArrivalSchedule> whole = () -> ArrivalSchedule.poisson(3000, 10 * S, 5);

        assertThat(union(whole, shares, MARKS)).isEqualTo(offsets(whole.get()));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void the_shares_of_a_ramp_together_are_the_one_schedule_to_the_nanosecond(int shares) {
        Supplier<ArrivalSchedule> whole = () -> ArrivalSchedule.stages(0, RAMP, true, 9);

        assertThat(union(whole, shares, MARKS)).isEqualTo(offsets(whole.get()));
    }

    @Test
    void shares_of_a_share_together_are_that_share() {
        Supplier<ArrivalSchedule> shard = () -> ArrivalSchedule.poisson(3000, 10 * S, 5)
                .share(1, 3, ArrivalStreams.of(5, "shard"));

        long[] loops = union(shard, 2, ArrivalStreams.of(5, "loop"));

        assertThat(loops).isEqualTo(offsets(shard.get()));
        assertThat(loops.length).isBetween(9_000, 11_000);
    }

    @Test
    void a_share_reports_the_index_of_each_arrival_in_the_whole_schedule() {
        ArrivalSchedule whole = ArrivalSchedule.constant(1000, S);
        ArrivalSchedule share = ArrivalSchedule.constant(1000, S).share(2, 3, MARKS);
        long offset;
        while ((offset = share.nextOffsetNanos()) >= 0) {
            assertThat(offset).isEqualTo(Math.round(share.index() * 1e6));
            assertThat(ScheduleShare.mark(MARKS, share.index(), 3)).isEqualTo(2);
        }
        assertThat(whole.nextOffsetNanos()).isZero();
        assertThat(whole.index()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 7})
    void a_share_of_a_poisson_run_passes_a_seeded_kolmogorov_smirnov_test_at_its_rate(int shares) {
        long[] share = offsets(ArrivalSchedule.poisson(7000, 20 * S, 11).share(shares - 1, shares, MARKS));
        double critical = 1.628 / Math.sqrt(share.length); // 1 %, large-n form

        assertThat(ksDistanceToExponential(share, 7000.0 / shares)).isLessThan(critical);
    }

    @Test
    void striping_by_index_is_not_poisson_at_the_share_rate() {
        long[] whole = offsets(ArrivalSchedule.poisson(7000, 20 * S, 11));
        long[] striped = LongStream.range(0, whole.length).filter(k -> k % 2 == 0).map(k -> whole[(int) k]).toArray();

        assertThat(ksDistanceToExponential(striped, 3500)).isGreaterThan(5 * 1.628 / Math.sqrt(striped.length));
    }

    @Test
    void a_share_outside_the_shares_is_refused() {
        assertThatThrownBy(() -> ArrivalSchedule.constant(1, S).share(2, 2, MARKS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("share must be in [0, 2) of shares >= 1 (got 2 of 2)");
    }
}
