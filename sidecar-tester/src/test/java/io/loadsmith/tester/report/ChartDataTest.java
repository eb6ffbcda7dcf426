package io.loadsmith.tester.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsFixtures;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.Point;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartDataTest {
    @Test
    void percentiles_in_percent_map_to_one_over_one_minus_p_and_drop_the_hundredth() {
        List<double[]> nines = ChartData.nines(List.of(new Point(0, 1), new Point(90, 2), new Point(99.9, 3), new Point(100, 4)));

        assertThat(nines).hasSize(3);
        assertThat(nines.get(0)).containsExactly(1.0, 1.0, 0.0);
        assertThat(nines.get(1)[0]).isCloseTo(10.0, within(1e-9));
        assertThat(nines.get(2)[0]).isCloseTo(1000.0, within(1e-6));
        assertThat(nines.get(2)[1]).isEqualTo(3.0);
    }

    @Test
    void percentiles_given_as_fractions_are_read_as_fractions() {
        List<double[]> nines = ChartData.nines(List.of(new Point(0.5, 1), new Point(0.99, 2), new Point(1.0, 3)));

        assertThat(nines).hasSize(2);
        assertThat(nines.get(0)[0]).isCloseTo(2.0, within(1e-9));
        assertThat(nines.get(1)[0]).isCloseTo(100.0, within(1e-9));
        assertThat(nines.get(1)[2]).isCloseTo(99.0, within(1e-9));
    }

    @Test
    void the_nines_axis_reads_as_percentiles() {
        assertThat(ChartData.ninesLabel(1)).isEqualTo("0%");
        assertThat(ChartData.ninesLabel(10)).isEqualTo("90%");
        assertThat(ChartData.ninesLabel(100)).isEqualTo("99%");
        assertThat(ChartData.ninesLabel(1000)).isEqualTo("99.9%");
        assertThat(ChartData.ninesLabel(100000)).isEqualTo("99.999%");
    }

    @Test
    void a_run_belongs_to_its_arm_field_else_to_the_longest_arm_its_name_starts_with_before_a_separator() {
        List<String> arms = List.of("open", "open-capped", "closed");

        assertThat(Experiment.armOf(run("x", "closed"), arms)).isEqualTo(2);
        assertThat(Experiment.armOf(run("open-capped-r2-on", null), arms)).isEqualTo(1);
        assertThat(Experiment.armOf(run("open-r2-on", null), arms)).isEqualTo(0);
        assertThat(Experiment.armOf(run("open r3 no-stall", null), arms)).isEqualTo(0);
        assertThat(Experiment.armOf(run("opener r1", null), arms)).isEqualTo(-1);
        assertThat(Experiment.armOf(run("paced-r1", null), arms)).isEqualTo(-1);
    }

    @Test
    void dots_get_a_log_axis_only_when_their_values_span_more_than_a_decade_and_none_is_zero() {
        assertThat(ChartData.logScale(List.of(dot(1009.0), dot(62.0), dot(1.0)))).isTrue();
        assertThat(ChartData.logScale(List.of(dot(10.0), dot(1.0)))).isFalse();
        assertThat(ChartData.logScale(List.of(dot(500.0), dot(0.0)))).isFalse();
        assertThat(ChartData.logScale(List.of())).isFalse();
    }

    private static ChartData.Dot dot(double valueMs) {
        return new ChartData.Dot(0, true, 1, valueMs, "a", false);
    }

    @Test
    void numbers_keep_about_three_significant_digits() {
        assertThat(Html.ms(0.0123)).isEqualTo("0.0123");
        assertThat(Html.ms(0.412)).isEqualTo("0.412");
        assertThat(Html.ms(5.5)).isEqualTo("5.50");
        assertThat(Html.ms(12.64)).isEqualTo("12.6");
        assertThat(Html.ms(151.68)).isEqualTo("152");
        assertThat(Html.ms(null)).isEqualTo("\u2014");
        assertThat(Html.msShort(10.0)).isEqualTo("10");
        assertThat(Html.msShort(14.65)).isEqualTo("14.65");
        assertThat(Html.msShort(0.54)).isEqualTo("0.54");
    }

    private static RunResult run(String name, String arm) {
        RunResult run = ResultsFixtures.run(name);
        return arm == null ? run : run.withAlignment("", arm, null);
    }
}
