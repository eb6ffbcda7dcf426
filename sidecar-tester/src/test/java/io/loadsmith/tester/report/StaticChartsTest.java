package io.loadsmith.tester.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.XYPlot;
import org.junit.jupiter.api.Test;

class StaticChartsTest {
    private static Results withScatter(int points) {
        List<double[]> scatter = new ArrayList<>();
        for (int i = 0; i < points; i++) {
            scatter.add(new double[] {-100 + i * 0.05, 1.0});
        }
        Results.Alignment a = new Results.Alignment(100, 10, -200, 300,
                List.of(new Results.AlignedSeries("open", 3L, Collections.nCopies(50, 5.0))),
                List.of(new Results.AlignedScatter("open", scatter)));
        return new Results(Path.of("results.json"), null, null, null, null, List.of(), List.of(), a, null);
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
