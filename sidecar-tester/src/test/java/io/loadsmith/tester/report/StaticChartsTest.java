package io.loadsmith.tester.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.Test;

class StaticChartsTest {
    private static ResultsFile withScatter(int points) {
        List<RunResult.Point> scatter = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            scatter.add(new RunResult.Point(-100 + i * 0.05, 1.0));
        }
        Alignment a = new Alignment(100, 10, -200, 300,
                List.of(new Alignment.Series("open", 3, Collections.nCopies(50, 5.0))),
                List.of(new Alignment.Scatter("open", scatter)));
        return ResultsFile.of(List.of()).withAlignment(a);
    }

    private static XYPlot scatterPanel(JFreeChart chart) {
        return (XYPlot) ((CombinedDomainXYPlot) chart.getXYPlot()).getSubplots().get(1);
    }

    @Test
    void the_files_thin_a_large_scatter_to_one_in_n_requests_and_say_so() {
        XYPlot panel = scatterPanel(StaticCharts.aligned(withScatter(6000)));

        assertThat(panel.getDataset().getItemCount(0)).isEqualTo(2000);
        assertThat(panel.getRangeAxis().getLabel()).isEqualTo("corrected latency (ms), 1 in 3 requests");
    }

    @Test
    void a_small_scatter_is_drawn_whole() {
        XYPlot panel = scatterPanel(StaticCharts.aligned(withScatter(2500)));

        assertThat(panel.getDataset().getItemCount(0)).isEqualTo(2500);
        assertThat(panel.getRangeAxis().getLabel()).isEqualTo("corrected latency (ms)");
    }

    @Test
    void the_aligned_lines_are_drawn_at_bin_centres_with_the_stall_shaded() {
        XYPlot lines = (XYPlot) ((CombinedDomainXYPlot) StaticCharts.aligned(withScatter(10)).getXYPlot()).getSubplots().get(0);

        assertThat(lines.getDataset().getXValue(0, 0)).isEqualTo(-195.0);
        assertThat(lines.getDataset().getXValue(0, 49)).isEqualTo(295.0);
        assertThat(lines.getDomainMarkers(org.jfree.chart.ui.Layer.BACKGROUND)).hasSize(1);
    }
}
