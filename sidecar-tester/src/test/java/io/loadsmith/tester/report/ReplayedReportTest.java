package io.loadsmith.tester.report;

import static io.loadsmith.tester.report.ReportWriterTest.chartData;
import static io.loadsmith.tester.report.ReportWriterTest.tables;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.tester.result.ResultsReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import javax.imageio.ImageIO;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report of a replayed run ({@link Fixtures#replayed}): its windows named, the profile beside the agent's windows. */
class ReplayedReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String YOUNG = Fixtures.YOUNG;

    @TempDir
    Path tmp;

    private Path replayedRun() throws IOException {
        return Fixtures.replayed(tmp);
    }

    @Test
    void the_report_puts_each_windows_pause_beside_the_plans_window_and_the_agents() throws IOException {
        String html = tables(Files.readString(ReportWriter.write(replayedRun()), StandardCharsets.UTF_8));

        assertThat(html).contains("<a href=\"#replay\">Profile vs agent</a>", "<h2>The profile beside the agent's windows</h2>")
                .contains("closed <small>7 windows, start off the plan by up to 0.731 ms, length by up to 0.500 ms</small>")
                .contains("<th>offset in the profile</th><th>duration in the profile</th><th>planned start</th><th>planned length</th>"
                        + "<th>agent's start</th><th>agent's length</th><th>start \u2212 planned</th><th>length \u2212 planned</th>")
                .contains("<tr><td>0</td><td class=\"kind\">gc: " + YOUNG + "</td><td>11,000.000</td><td>299.500</td>"
                        + "<td>1,000.000</td><td>299.500</td><td>1,000.208</td><td>300.000</td><td>+0.208</td><td>+0.500</td></tr>")
                .contains("<td class=\"kind\">gc: G1: Pause Full (System.gc())</td>");
        assertThat(html).as("the aligned plot says what its dashed lines are").contains("a dashed line marks where each ends");
    }

    @Test
    void the_aligned_plot_and_the_timeline_name_each_replayed_window_by_its_pause() throws IOException {
        JsonNode data = chartData(Files.readString(ReportWriter.write(replayedRun()), StandardCharsets.UTF_8));

        JsonNode windows = data.at("/aligned/windows");
        assertThat(windows).hasSize(7);
        assertThat(windows.get(0).toString()).as("all seven end at 300 ms: one label for all, on the first").isEqualTo(
                "{\"name\":\"stall 0: gc: " + YOUNG + " at 11.000 s of the profile\",\"endMs\":300.0,"
                        + "\"label\":\"stall 0, 1, 2, 3, 4, 5, 6\"}");
        assertThat(windows.get(1).get("label").asText()).isEmpty();
        assertThat(windows.get(2).get("name").asText()).startsWith("stall 2: gc: G1: Pause Full (System.gc()) at ");
        assertThat(data.at("/runs/0/stalls/0/2").asText()).isEqualTo("stall 0: gc: " + YOUNG + " at 11.000 s of the profile");
        assertThat(data.at("/runs/1/stalls/0")).as("a seeded run's stalls keep their two times").hasSize(2);
    }

    @Test
    void the_aligned_files_mark_each_window_and_name_the_first_ones_beneath() throws Exception {
        Path dir = replayedRun();
        ReportWriter.write(dir);

        XYPlot lines = (XYPlot) ((CombinedDomainXYPlot) StaticCharts.aligned(ResultsReader.read(dir.resolve("results.json")))
                .getXYPlot()).getSubplots().get(0);
        assertThat(lines.getDomainMarkers(Layer.FOREGROUND)).hasSize(7).allSatisfy(m -> {
            assertThat(m).isInstanceOf(ValueMarker.class);
            assertThat(((ValueMarker) m).getValue()).isEqualTo(300.0);
        }).extracting(m -> ((ValueMarker) m).getLabel()).containsOnlyOnce("stall 0, 1, 2, 3, 4, 5, 6");
        String svg = Files.readString(dir.resolve("aligned.svg"));
        assertThat(svg).contains("stall 0: gc: G1: Pause Young (Normal) (G1 Evacuation Pause) at 11.000 s of the profile, 300 ms")
                .contains("and 1 more window (report.html lists them all)").doesNotContain("stall 6: gc");
        assertThat(ImageIO.read(dir.resolve("aligned.png").toFile()).getHeight()).as("taller by the 8 lines of notes")
                .isEqualTo(760 + 8 * 16);
    }

    @Test
    void windows_ending_apart_get_a_label_each_and_those_together_share_one() {
        List<ChartData.ReplayedWindow> windows = List.of(new ChartData.ReplayedWindow(0, "a", 50), new ChartData.ReplayedWindow(1, "b", 300),
                new ChartData.ReplayedWindow(2, "c", 51), new ChartData.ReplayedWindow(3, "d", 56));

        assertThat(ChartData.windowLabels(windows, 1000)).containsExactly("stall 0, 2", "stall 1", "", "stall 3");
        assertThat(ChartData.windowLabels(Collections.nCopies(13, windows.get(0)), 1000)).as("too many to label")
                .containsOnly("");
    }

    @Test
    void a_seeded_page_has_neither_the_section_nor_the_window_lines() throws IOException {
        String html = Files.readString(ReportWriter.write(Fixtures.runDir("closed-paced-open", tmp)), StandardCharsets.UTF_8);

        assertThat(tables(html)).doesNotContain("id=\"replay\"", "dashed line");
        assertThat(chartData(html).get("aligned").has("windows")).isFalse();
    }

    @Test
    void a_file_written_before_the_plans_windows_were_recorded_shows_what_it_has() throws IOException {
        Path dir = Fixtures.runDir("closed-paced-open", tmp);
        ObjectNode results = (ObjectNode) JSON.readTree(dir.resolve("results.json").toFile());
        ((ObjectNode) results.at("/runs/0/stalls/0")).putObject("replayed").put("source", "gc+host")
                .put("label", "G1: Pause Full (System.gc()) + host").put("offset_ms", 600.0);
        JSON.writeValue(dir.resolve("results.json").toFile(), results);

        String html = tables(Files.readString(ReportWriter.write(dir), StandardCharsets.UTF_8));

        assertThat(html).contains("closed <small>1 window</small>")
                .contains("<td class=\"kind\">gc+host: G1: Pause Full (System.gc()) + host</td><td>600.000</td><td>\u2014</td>"
                        + "<td>\u2014</td><td>\u2014</td>");
    }
}
