package io.loadsmith.tester.experiment;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OutliersTest {

    @Test
    void a_cold_first_round_ten_times_the_others_is_an_outlier_by_ratio_and_alone() {
        List<Outliers.Finding> found = Outliers.of(Map.of(1, 1009.0, 2, 62.0, 3, 80.0, 4, 71.0, 5, 66.0));

        assertThat(found).containsExactly(new Outliers.Finding(1, 1009.0, 68.5, 62.0, 80.0, "ratio"));
    }

    @Test
    void a_round_below_a_third_of_the_others_median_is_an_outlier_by_ratio() {
        List<Outliers.Finding> found = Outliers.of(Map.of(1, 60.0, 2, 62.0, 3, 15.0, 4, 66.0));

        assertThat(found).containsExactly(new Outliers.Finding(3, 15.0, 62.0, 60.0, 66.0, "ratio"));
    }

    @Test
    void a_round_outside_the_others_range_by_more_than_the_range_is_an_outlier_by_range() {
        List<Outliers.Finding> found = Outliers.of(Map.of(1, 10.0, 2, 10.25, 3, 10.5, 4, 10.75, 5, 14.0));

        assertThat(found).containsExactly(new Outliers.Finding(5, 14.0, 10.375, 10.0, 10.75, "range"));
    }

    @Test
    void a_round_just_outside_the_others_range_by_less_than_the_range_is_no_outlier() {
        assertThat(Outliers.of(Map.of(1, 10.0, 2, 11.0, 3, 12.0, 4, 13.5))).isEmpty();
    }

    @Test
    void rounds_that_agree_to_a_hundredth_call_no_small_difference_an_outlier() {
        assertThat(Outliers.of(Map.of(1, 1.57, 2, 1.57, 3, 1.57, 4, 1.58))).isEmpty();
    }

    @Test
    void three_rounds_give_no_verdict_and_missing_values_are_left_out() {
        Map<Integer, Double> values = new HashMap<>();
        values.put(1, 1.0);
        values.put(2, 100.0);
        values.put(3, 1.1);
        values.put(4, null);

        assertThat(Outliers.of(values)).isEmpty();
    }
}
