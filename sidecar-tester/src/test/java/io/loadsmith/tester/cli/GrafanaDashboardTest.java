package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.cli.GrafanaDashboard.Kind;
import io.loadsmith.tester.cli.GrafanaDashboard.Query;
import io.loadsmith.tester.experiment.ServiceProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shipped dashboard (examples/grafana/loadsmith.json) draws its stall windows and host pauses from counters:
 * a gauge of an open window is read only at a scrape and misses a window shorter than the scrape interval, an
 * increase over Grafana's {@code $__rate_interval} (at least a step plus a scrape) counts every one. LiveMetricsIT
 * runs every query against a real Prometheus.
 */
class GrafanaDashboardTest {

    /** A counter read as what it gained over the rate interval: the only way a marking query may read a metric. */
    private static final Pattern COUNTER_OVER_RATE_INTERVAL = Pattern.compile(
            "\\b(?:increase|rate)\\((loadsmith_[a-z0-9_]+_total)(?:\\{[^}]*})?\\[\\$__rate_interval]\\)");
    private static final Pattern RANGE = Pattern.compile("\\[([^\\]]*)]");

    private static GrafanaDashboard dashboard() throws Exception {
        return GrafanaDashboard.read(ServiceProcess.findRoot(Path.of("")).resolve("examples/grafana/loadsmith.json"));
    }

    @Test
    void the_stall_window_and_host_pause_annotations_read_counters_over_the_rate_interval() throws Exception {
        List<Query> annotations = dashboard().of(Kind.ANNOTATION);

        assertThat(annotations).extracting(Query::name).containsExactly("Stall windows", "Host pauses");
        assertThat(annotations).extracting(GrafanaDashboardTest::gaugesAndBareReads).containsOnly(List.of());
        assertThat(annotations).extracting(Query::metrics)
                .containsExactly(List.of("loadsmith_stalls_total"), List.of("loadsmith_host_pauses_total"));
    }

    @Test
    void the_stall_windows_panel_reads_counters_over_the_rate_interval() throws Exception {
        List<Query> band = dashboard().named(Kind.PANEL, "Stall windows");

        assertThat(band).hasSize(3);
        assertThat(band).extracting(GrafanaDashboardTest::gaugesAndBareReads).containsOnly(List.of());
        assertThat(band).flatExtracting(Query::metrics).doesNotContain("loadsmith_stall_active",
                "loadsmith_tester_stall_active");
    }

    @Test
    void every_range_of_the_dashboard_is_the_rate_interval() throws Exception {
        List<String> ranges = new ArrayList<>();
        for (Query query : dashboard().queries()) {
            Matcher range = RANGE.matcher(query.expr());
            while (range.find()) {
                ranges.add(range.group(1));
            }
        }
        // $__interval as a range drops what a counter gained between the last scrape of one step and the first of
        // the next; $__rate_interval (at least the step plus a scrape) keeps it
        assertThat(ranges).isNotEmpty().containsOnly("$__rate_interval");
    }

    /** The check itself: a gauge, a counter read bare or over $__interval are found, a counter's increase is not. */
    @Test
    void a_gauge_or_a_counter_read_at_one_scrape_is_told_from_a_counter_over_the_rate_interval() {
        assertThat(gaugesAndBareReads(query("max(loadsmith_stall_active) == 1")))
                .containsExactly("loadsmith_stall_active");
        assertThat(gaugesAndBareReads(query("sum(increase(loadsmith_host_pauses_total[$__interval])) > 0")))
                .containsExactly("loadsmith_host_pauses_total");
        assertThat(gaugesAndBareReads(query("sum(loadsmith_stalls_total)"))).containsExactly("loadsmith_stalls_total");
        assertThat(gaugesAndBareReads(query(
                "sum(increase(loadsmith_tester_stalls_total{run_id=~\"$run_id\"}[$__rate_interval])) > 0"))).isEmpty();
    }

    private static Query query(String expr) {
        return new Query(Kind.ANNOTATION, "test", null, expr);
    }

    /** The metrics {@code query} reads other than as a counter's increase or rate over $__rate_interval. */
    private static List<String> gaugesAndBareReads(Query query) {
        List<String> read = new ArrayList<>(query.metrics());
        Matcher counter = COUNTER_OVER_RATE_INTERVAL.matcher(query.expr());
        while (counter.find()) {
            read.remove(counter.group(1));
        }
        return read;
    }
}
