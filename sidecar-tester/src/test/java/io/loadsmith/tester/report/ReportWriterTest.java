package io.loadsmith.tester.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import io.loadsmith.tester.result.InvalidResultsOnPurpose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class ReportWriterTest {
    @TempDir
    static Path shared;
    /** Each fixture's report is written once and read by every test that looks at it. */
    private static final Map<String, Path> WRITTEN = new HashMap<>();

    @TempDir
    Path tmp;

    private static synchronized Path written(String fixture) throws IOException {
        Path dir = WRITTEN.get(fixture);
        if (dir == null) {
            dir = Fixtures.runDir(fixture, shared);
            Path report = ReportWriter.write(dir);
            assertThat(report).isEqualTo(dir.resolve("report.html"));
            WRITTEN.put(fixture, dir);
        }
        return dir;
    }

    private String report(String fixture) throws IOException {
        return Files.readString(written(fixture).resolve("report.html"), StandardCharsets.UTF_8);
    }

    private String tablesOf(String fixture) throws IOException {
        return tables(report(fixture));
    }

    /** The page without its inlined scripts, so that a failed assertion prints something readable. */
    static String tables(String html) {
        return html.substring(0, html.indexOf("<script type=\"application/json\""));
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The page's chart data block ({@code report-data}). */
    static JsonNode chartData(String html) throws IOException {
        String open = "<script type=\"application/json\" id=\"report-data\">";
        int from = html.indexOf(open) + open.length();
        return new ObjectMapper().readTree(html.substring(from, html.indexOf("</script>", from)));
    }

    private static void assertValidPng(Path png, int width) throws IOException {
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as(png + " is a PNG image").isNotNull();
        assertThat(image.getWidth()).isEqualTo(width);
        assertThat(image.getHeight()).isGreaterThan(300);
    }

    private static Document assertValidSvg(Path svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document doc = f.newDocumentBuilder().parse(svg.toFile());
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        return doc;
    }

    @Test
    void a_single_open_run_shows_its_percentiles_side_by_side() throws IOException {
        String html = tablesOf("single-open");

        assertThat(html).contains("<h1>open</h1>", "clock offset <b>0 ms</b> \u00b1 0.0210 ms");
        assertThat(html).contains("<th>&gt; 10 ms</th>");
        assertThat(html).contains("<span class=\"sw c0\"></span>open<br><small>open, stall off, precision 50us</small></td>"
                + "<td class=\"kind\">service</td><td>0.412</td><td>0.733</td>"
                + "<td>1.87</td><td>4.05</td><td>12.6</td><td>0.498</td><td>3</td>");
        assertThat(html).contains("<td class=\"kind\">corrected</td><td>0.431</td><td>0.761</td><td>2.14</td><td>5.50</td>"
                + "<td>13.1</td><td>0.522</td><td>5</td>");
        assertThat(html).contains("<td rowspan=\"2\" class=\"bad\">4</td><td rowspan=\"2\">0</td><td rowspan=\"2\">0</td>"
                + "<td rowspan=\"2\">499.9</td><td rowspan=\"2\">14,200<br><small>21.3 ms/s</small></td><td rowspan=\"2\">0.0870 ms</td>");
        assertThat(html).contains("<code>p99 &lt; 500ms</code></td><td class=\"n\">2.14 ms</td>", "all pass");
        assertThat(html).contains("<code>errors &lt; 0.1%</code></td><td class=\"n\">0.027%</td>");
        assertThat(html).contains("id=\"chart-spectrum\"", "id=\"chart-timeline-0\"", "id=\"above\"");
        assertThat(html).doesNotContain("id=\"aligned\"", "id=\"experiment\"", "id=\"stalls\"", "id=\"steps\"", "id=\"warnings\"");
    }

    @Test
    void a_single_open_run_writes_spectrum_and_timeline_as_png_and_svg() throws Exception {
        Path dir = written("single-open");

        assertThat(files(dir)).containsExactly("report.html", "results.json", "spectrum.png", "spectrum.svg", "timeline.png", "timeline.svg");
        assertValidPng(dir.resolve("spectrum.png"), 1000);
        assertValidPng(dir.resolve("timeline.png"), 1000);
        assertValidSvg(dir.resolve("spectrum.svg"));
        assertThat(Files.readString(dir.resolve("spectrum.svg"))).contains("99.9%", "open corrected");
        assertValidSvg(dir.resolve("timeline.svg"));
    }

    @Test
    void without_static_charts_the_page_is_written_with_its_own_charts_and_no_png_or_svg() throws Exception {
        Path dir = Fixtures.runDir("single-open", tmp);
        Path report = ReportWriter.write(dir, false);

        assertThat(files(dir)).containsExactly("report.html", "results.json");
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(chartData(html).size()).isEqualTo(chartData(report("single-open")).size());
        assertThat(html).doesNotContain("spectrum.png");
    }

    @Test
    void the_chart_data_keeps_its_keys_in_one_order_so_the_same_results_give_the_same_page() throws IOException {
        JsonNode aligned = chartData(report("closed-paced-open")).get("aligned");
        JsonNode dot = chartData(report("experiment-outlier")).at("/experiment/corrected/0");

        assertThat(aligned.get("series").get(0).fieldNames()).toIterable().containsExactly("run", "stallsMet", "points");
        assertThat(aligned.get("scatter").get(0).fieldNames()).toIterable().containsExactly("run", "points");
        assertThat(dot.fieldNames()).toIterable().containsExactly("x", "y", "stall", "round", "run", "outlier");
    }

    @Test
    void the_spectrum_data_is_on_the_nines_axis_without_the_hundredth_percentile() throws IOException {
        JsonNode corrected = chartData(report("single-open")).at("/runs/0/spectrum/corrected");

        assertThat(corrected).hasSize(12);
        assertThat(corrected.get(0).get(0).asDouble()).isEqualTo(1.0);
        assertThat(corrected.get(7).get(0).asDouble()).isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(corrected.get(7).get(1).asDouble()).isEqualTo(2.14);
    }

    @Test
    void closed_paced_and_open_with_stalls_show_warnings_stalls_steps_and_verdicts() throws IOException {
        String html = tablesOf("closed-paced-open");

        assertThat(html).contains("<td class=\"kind\">corrected<br><small>= service: a closed loop has no schedule</small></td>");
        assertThat(html).contains("<li class=\"tester-side\"><b>open:</b> tester was the bottleneck: send lateness p99 2.1 ms exceeds 1 ms for 3 s</li>");
        assertThat(html).contains("<td class=\"kind\">estimated (interval 0.54 ms)</td>", "<td class=\"kind\">estimated (interval 14.65 ms)</td>");
        // paced: corrected p99 187 against service p99 1.4
        assertThat(html).contains("<td class=\"gap\">187 <span class=\"ratio\">\u00d7134</span></td>");
        assertThat(html).contains("<span class=\"badge fail\">2 failed</span>");
        assertThat(html).contains("<td>all</td><td><code>p99 &lt; 100ms</code></td><td class=\"n\">187 ms</td><td><span class=\"badge fail\">FAIL</span></td>");
        assertThat(html).contains("id=\"chart-aligned\"", "id=\"chart-aligned-scatter\"", "<a href=\"aligned.png\">aligned.png</a>");
        // the closed loop sent nothing during its stalls, the open loop went on
        assertThat(html).contains("<tr><td class=\"run\">closed</td><td>7</td><td>");
        assertThat(html).containsPattern("<tr><td class=\"run\">closed</td><td>7</td><td>[0-9.]+</td><td>0.00</td></tr>");
        assertThat(html).containsPattern("<tr><td class=\"run\">open</td><td>7</td><td>[0-9.]+</td><td>[5-6]\\.[0-9]{2}</td></tr>");
        assertThat(html).contains("<td>7</td><td>0</td><td>0.4%</td><td><span class=\"badge fail\">no</span></td>");
        assertThat(html).contains("<td>7</td><td>1,049</td><td>7.1%</td><td><span class=\"badge pass\">yes</span></td>");
        assertThat(html).contains("<th>#</th><th>start (ms after first)</th>", "<td>0</td><td>0</td><td>300</td><td>8</td><td>0</td><td>0</td><td>8</td><td>8</td><td>yes</td>");
        assertThat(html).contains("<td class=\"run\" rowspan=\"2\">login</td><td rowspan=\"2\">7,405</td>", ">score</td>");
        assertThat(html).contains("<td>1,143 <small>(7.7%)</small></td>");
    }

    @Test
    void the_stall_table_of_a_replayed_run_names_each_windows_pause() throws IOException {
        Path dir = Fixtures.runDir("closed-paced-open", tmp);
        ObjectNode results = (ObjectNode) new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        ObjectNode row = (ObjectNode) results.at("/runs/0/stalls/0");
        row.putObject("replayed").put("source", "gc+host").put("label", "G1: Pause Full (System.gc()) + host")
                .put("offset_ms", 600.0);
        new ObjectMapper().writeValue(dir.resolve("results.json").toFile(), results);

        String html = tables(Files.readString(ReportWriter.write(dir), StandardCharsets.UTF_8));

        assertThat(html).contains("<th>met</th><th>replays (offset in the profile, source: label)</th>")
                .contains("<td>yes</td><td>600.00 ms gc+host: G1: Pause Full (System.gc()) + host</td></tr>");
        assertThat(tablesOf("closed-paced-open")).doesNotContain("replays (offset");
    }

    @Test
    void the_aligned_plot_gets_bin_centres_from_from_ms() throws IOException {
        JsonNode aligned = chartData(report("closed-paced-open")).get("aligned");

        assertThat(aligned.get("stallMs").asDouble()).isEqualTo(300.0);
        JsonNode closed = aligned.at("/series/0");
        assertThat(closed.get("run").asText()).isEqualTo("closed");
        assertThat(closed.get("points")).hasSize(150);
        assertThat(closed.at("/points/0/0").asDouble()).isEqualTo(-595.0);
        assertThat(closed.at("/points/60/0").asDouble()).isEqualTo(5.0);
        assertThat(closed.at("/points/60/1").asDouble()).isEqualTo(0.0);
        assertThat(closed.at("/points/149/0").asDouble()).isEqualTo(895.0);
        assertThat(aligned.get("scatter")).hasSize(3);
    }

    @Test
    void the_aligned_picture_is_written_as_png_and_svg() throws Exception {
        Path dir = written("closed-paced-open");

        assertThat(files(dir)).contains("aligned.png", "aligned.svg", "spectrum.png", "spectrum.svg", "timeline.png", "timeline.svg");
        assertValidPng(dir.resolve("aligned.png"), 1000);
        assertThat(ImageIO.read(dir.resolve("aligned.png").toFile()).getHeight()).isEqualTo(760);
        assertValidSvg(dir.resolve("aligned.svg"));
        assertThat(Files.readString(dir.resolve("aligned.svg"))).contains("time from stall start (ms)", "closed (7 stalls)", "stall");
    }

    @Test
    void an_experiment_draws_every_round_of_every_arm_and_its_pairs() throws Exception {
        Path dir = written("experiment-5-rounds");
        String page = report("experiment-5-rounds");
        String html = tables(page);

        assertThat(html).contains("<details><summary>Tester settings of 20 runs</summary>");
        assertThat(html.indexOf("id=\"experiment\"")).as("the experiment comes before the long table").isLessThan(html.indexOf("id=\"summary\""));
        assertThat(html).contains("<b>5</b> rounds", "<b>closed</b>, <b>open</b>", "id=\"chart-experiment-corrected\"", "id=\"chart-experiment-service\"");
        // a file written before comparisons came in both latencies: its service columns are empty
        assertThat(html).contains("<tr><td>open</td><td>closed</td><td>on</td><td class=\"n\">152</td>"
                + "<td class=\"n small\">152, 152, 151, 152, 151</td><td><span class=\"badge pass\">told apart</span></td>"
                + "<td class=\"n\">\u2014</td><td></td><td></td></tr>");
        assertThat(html).contains("<td>off</td><td class=\"n\">1.72</td>", "not told apart");
        assertThat(html).contains("metric <b>p99</b>", "<h3>Stalls on against off</h3>",
                "<td>closed/stall</td><td>closed/no-stall</td><td>on</td><td class=\"n\">0.400</td>");
        assertThat(html).containsOnlyOnce("<b>What did users see?</b>");
        assertThat(html).contains("<h1>experiment (no name)</h1>");
        assertThat(html).contains("<tr><th>rates</th><td>250.0, 500.0</td></tr>", "<tr><th>highest_rate_every_round</th><td>250.0</td></tr>",
                "<tr><th>window_s</th><td>1.0</td></tr>", "<th>round</th><th>stall</th><th>p99_ms</th>",
                "<tr><td>1</td><td>true</td><td>1.2, 150.3</td><td>1.2</td><td>150.3</td><td>125.25</td></tr>");
        JsonNode experiment = chartData(page).get("experiment");
        assertThat(experiment.get("corrected")).hasSize(20);
        assertThat(experiment.get("service")).hasSize(20);
        JsonNode first = experiment.at("/corrected/0");
        assertThat(first.get("run").asText()).isEqualTo("closed r1 no-stall");
        assertThat(first.get("x").asDouble()).isCloseTo(-0.18 - 0.03, org.assertj.core.data.Offset.offset(1e-9));
        assertValidPng(dir.resolve("experiment.png"), 1000);
        assertValidSvg(dir.resolve("experiment.svg"));
    }

    @Test
    void an_experiment_with_a_planted_outlier_marks_it_and_gives_both_verdicts_with_and_without_it() throws Exception {
        Path dir = written("experiment-outlier");
        String page = report("experiment-outlier");
        String html = tables(page);

        assertThat(html).contains("<title>loadsmith report \u2014 experiment lab-shape</title>", "<h1>experiment lab-shape</h1>");
        // one line per distinct warning, the tester-side ones first
        assertThat(html).contains("<li class=\"tester-side\"><b>open-546 r1 stall:</b> the tester itself sent late: p99 2.4 ms");
        assertThat(html).contains("<li class=\"tester-side\"><b>paced-8/stall (all 5 runs):</b> 413\u2013465 requests waited "
                + "(at most 91.0\u201395.0 ms) for the previous answer of their connection");
        assertThat(html).contains("<li class=\"tester-side\"><b>paced-8 r3 no-stall:</b> started on a busy box after waiting 20.0 s");
        assertThat(html).contains("<li><b>closed-1 (all 10 runs):</b> closed loop: each connection waits");
        assertThat(html.split("<li", -1)).hasSize(5);
        assertThat(html.indexOf("open-546 r1 stall:</b>")).isLessThan(html.indexOf("closed-1 (all 10 runs)"));
        // the outlier: in its table with its clues, and marked beside its run
        assertThat(html).contains("<tr><td class=\"run\">open-546 r1 stall</td><td>p99 corrected</td><td class=\"n\">1009 ms</td>"
                + "<td class=\"n\">68.5 ms (62.0\u201380.0)</td><td>ratio</td><td class=\"clues\">the experiment&#39;s first run "
                + "(a cold start); send lateness p99 2.60 ms (other rounds 0.35\u20130.50 ms): the tester itself was late;");
        assertThat(html).containsOnlyOnce("class=\"badge outlier\"");
        assertThat(html).contains("open-546 r1 stall <a href=\"#outliers\" class=\"badge outlier\"");
        // both latencies, each with its verdict; the corrected one changes without the outlier's round
        assertThat(html).contains("<tr><td>open-546</td><td>paced-8</td><td>on</td><td class=\"n\">-22.0</td>"
                + "<td class=\"n small\">914, -26.0, -22.0, -20.0, -31.0</td><td><span class=\"badge off\">not told apart</span>"
                + "<br><small class=\"without\">without round 1 (outlier): </small><span class=\"badge pass\">told apart</span></td>"
                + "<td class=\"n\">1.75</td><td class=\"n small\">2.00, 1.70, 1.80, 1.75, 1.75</td>"
                + "<td><span class=\"badge pass\">told apart</span></td></tr>");
        assertThat(html).contains("<small class=\"without\">the same without round 1 (outlier)</small>");
        JsonNode experiment = chartData(page).get("experiment");
        assertThat(experiment.get("correctedLog").asBoolean()).as("1009 against 1.0 ms: a log axis").isTrue();
        assertThat(experiment.get("serviceLog").asBoolean()).isFalse();
        List<String> outliers = new java.util.ArrayList<>();
        experiment.get("corrected").forEach(d -> {
            if (d.get("outlier").asBoolean()) {
                outliers.add(d.get("run").asText());
            }
        });
        assertThat(outliers).containsExactly("open-546 r1 stall");
        assertValidPng(dir.resolve("experiment.png"), 1000);
        assertThat(Files.readString(dir.resolve("experiment.svg"))).contains("square: an outlier");
    }

    @Test
    void a_results_file_written_by_the_engine_renders() throws Exception {
        // engine-paced/results.json is the output of the engine's own ResultsWriter (a simulated paced run)
        String html = tablesOf("engine-paced");

        assertThat(html).contains("<td class=\"kind\">estimated (interval 20 ms)</td>");
        assertThat(html).contains("<td class=\"gap\">1761 <span class=\"ratio\">\u00d7440</span></td>");
        assertThat(html).contains("<li class=\"tester-side\"><b>paced:</b> 496 requests waited (at most 1981.0 ms) for the previous answer");
        assertThat(html).contains("<code>p99 &lt; 50ms</code></td><td class=\"n\">1762 ms</td><td><span class=\"badge fail\">FAIL</span>");
        assertThat(html).contains("<summary><span class=\"sw c0\"></span>paced <small>1 step</small></summary>");
        assertThat(html).doesNotContain("id=\"stalls\"", "id=\"aligned\"");
        assertValidPng(written("engine-paced").resolve("spectrum.png"), 1000);
    }

    @Test
    void results_without_optional_parts_give_a_plain_page_with_escaped_names() throws IOException {
        Path dir = written("minimal");
        String page = report("minimal");
        String html = tables(page);

        assertThat(files(dir)).containsExactly("report.html", "results.json");
        assertThat(html).contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co");
        assertThat(html).doesNotContain("<script>alert");
        assertThat(html).contains("<td>1.50</td><td>5.00</td><td>7.25</td><td>8.00</td><td>8.00</td>");
        assertThat(html).doesNotContain("id=\"slos\"", "id=\"aligned\"", "id=\"experiment\"", "id=\"spectrum\"", "id=\"timeline\"",
                "id=\"above\"", "id=\"steps\"", "id=\"stalls\"", "clock offset");
        assertThat(chartData(page).get("runs").get(0).get("name").asText()).isEqualTo("<script>alert('x')</script> & co");
        assertThat(page.indexOf("\\u003cscript>alert('x')\\u003c/script> & co")).isPositive();
        assertThat(page.indexOf("<script>alert")).isEqualTo(-1);
    }

    @Test
    @InvalidResultsOnPurpose
    void malformed_json_is_refused_naming_the_file_and_line() throws IOException {
        Path dir = Fixtures.runDir("malformed", tmp);

        assertThatThrownBy(() -> ReportWriter.write(dir))
                .isInstanceOf(ReportException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(dir.resolve("results.json") + ":4:")
                .hasMessageContaining("not valid JSON");
        assertThat(files(dir)).containsExactly("results.json");
    }

    @Test
    @InvalidResultsOnPurpose
    void a_field_of_the_wrong_type_is_refused_naming_the_field() throws IOException {
        Files.writeString(tmp.resolve("results.json"), "{\"schema\": \"loadsmith/results/v1\", \"runs\": [{\"name\": \"a\", "
                + "\"latency_ms\": {\"service\": {\"p99\": \"fast\"}}}]}");

        assertThatThrownBy(() -> ReportWriter.write(tmp))
                .isInstanceOf(ReportException.class)
                .hasMessage(tmp.resolve("results.json") + ": runs[0].latency_ms.service.p99 must be a number (got \"fast\")");
    }

    @Test
    @InvalidResultsOnPurpose
    void another_schema_is_refused() throws IOException {
        Files.writeString(tmp.resolve("results.json"), "{\"schema\": \"loadsmith/results/v9\", \"runs\": []}");

        assertThatThrownBy(() -> ReportWriter.write(tmp))
                .isInstanceOf(ReportException.class)
                .hasMessage(tmp.resolve("results.json") + ": schema must be \"loadsmith/results/v1\" (got \"loadsmith/results/v9\")");
    }

    @Test
    void a_directory_without_results_is_refused_naming_the_file() {
        assertThatThrownBy(() -> ReportWriter.write(tmp))
                .isInstanceOf(ReportException.class)
                .hasMessage(tmp.resolve("results.json") + ": no such file (a results directory holds results.json)");
    }

    @Test
    void the_page_inlines_the_chart_library_and_loads_nothing_from_the_network() throws IOException {
        String html = report("closed-paced-open");

        assertThat(html.contains("echarts.init(")).as("the page calls ECharts").isTrue();
        assertThat(html.contains("Licensed to the Apache Software Foundation")).as("ECharts is inlined").isTrue();
        assertThat(Pattern.compile("<script[^>]+src=").matcher(html).find()).as("a script loaded from elsewhere").isFalse();
        assertThat(Pattern.compile("<link[^>]+href=").matcher(html).find()).as("a style sheet loaded from elsewhere").isFalse();
        assertThat(html.length()).isBetween(600_000, 900_000);
    }
}
