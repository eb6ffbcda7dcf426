package io.loadsmith.tester.session;

import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.align.RunAlignment;
import io.loadsmith.tester.align.StallAlignment;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.RunResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AlignedResultsTest {

    private static final long MS = 1_000_000L;

    private static RunAlignment aligned() {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 1000 * MS, 1100 * MS, 3)),
                0, 3000 * MS, AlignedBins.forStall(100 * MS), 10, 1);
        alignment.add(990 * MS, 990 * MS, 1101 * MS);
        alignment.add(1050 * MS, 1050 * MS, 1102 * MS);
        return alignment.finish();
    }

    @Test
    void a_run_gets_every_per_stall_field_and_its_summary() {
        RunAlignment run = aligned();

        assertThat(AlignedResults.stalls(run)).containsExactly(
                new RunResult.StallRow(0, 1000 * MS, 1100 * MS, 3, 1, 1, 1, 2, true));
        assertThat(AlignedResults.summary(run.summary(), List.of()))
                .isEqualTo(new RunResult.StallTotals(1, 1, 1.0, true, 2, 2, List.of()));
    }

    @Test
    void missing_stalls_are_flagged_in_the_summary() {
        assertThat(AlignedResults.summary(aligned().summary(), List.of(4)).missing()).containsExactly(4);
    }

    @Test
    void the_top_level_alignment_has_one_series_and_one_scatter_per_run() {
        Alignment alignment = AlignedResults.alignment(List.of(new AlignedResults.NamedRun("open", aligned())));

        assertThat(alignment.stallMs()).isEqualTo(100.0);
        assertThat(alignment.binMs()).isEqualTo(5.0);
        assertThat(alignment.fromMs()).isEqualTo(-100.0);
        assertThat(alignment.toMs()).isEqualTo(200.0);
        Alignment.Series series = alignment.series().get(0);
        assertThat(series.run()).isEqualTo("open");
        assertThat(series.stallsMet()).isEqualTo(1);
        assertThat(series.sendsPerBin()).hasSize(60);
        assertThat(series.sendsPerBin().get(18)).isEqualTo(1.0);
        assertThat(series.sendsPerBin().get(30)).isEqualTo(1.0);
        assertThat(alignment.scatter()).containsExactly(new Alignment.Scatter("open",
                List.of(new RunResult.Point(-10.0, 111.0), new RunResult.Point(50.0, 52.0))));
    }

    @Test
    void runs_binned_differently_cannot_share_one_plot() {
        StallAlignment other = new StallAlignment(List.of(), 0, 1, AlignedBins.forStall(10 * MS), 0, 1);
        assertThatThrownBy(() -> AlignedResults.alignment(List.of(new AlignedResults.NamedRun("a", aligned()),
                new AlignedResults.NamedRun("b", other.finish())))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("run b was binned as");
    }

    @Test
    void milliseconds_are_rounded_to_the_microsecond() {
        assertThat(AlignedResults.ms(1_234_567)).isEqualTo(1.235);
        assertThat(AlignedResults.ms(-1_234_567)).isEqualTo(-1.235);
    }
}
