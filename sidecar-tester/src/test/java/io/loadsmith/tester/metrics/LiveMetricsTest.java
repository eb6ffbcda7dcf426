package io.loadsmith.tester.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.TransportStats;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBucket;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveMetricsTest {

    private static final long MS = 1_000_000L;
    private static final RunLabels LABELS = new RunLabels("score", "open", "1/3", "2026-12-01T20:00:00Z");

    private final LiveStats live = new LiveStats();
    private final long[] now = {0};
    private final RunRecorder recorder = RunRecorder.discarding(0, 10 * MS, 0, step -> step == 0 ? "login" : "score", false);

    LiveMetricsTest() {
        recorder.live(live);
        live.stepNames(step -> step == 0 ? "login" : "score");
    }

    private MetricSnapshots scrape(long inFlight) {
        TransportStats counts = new TransportStats() {
            @Override
            public long sent() {
                return 0;
            }

            @Override
            public long inFlight() {
                return inFlight;
            }

            @Override
            public io.loadsmith.tester.transport.ConnectionStats connections() {
                return null;
            }
        };
        return new LiveMetrics(live, LABELS, () -> now[0], () -> counts).collect();
    }

    private static MetricSnapshot family(MetricSnapshots all, String name) {
        return all.stream().filter(s -> s.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void requests_count_by_step_and_outcome_and_dropped_by_step_with_the_runs_labels() {
        recorder.completed(0, 0, 0, 2 * MS, 0, 0, 200, Outcome.OK);
        recorder.completed(0, 0, 0, 2 * MS, 0, 1, 200, Outcome.OK);
        recorder.completed(0, 0, 0, 2 * MS, 0, 1, 200, Outcome.OK);
        recorder.completed(0, 0, -1, 2 * MS, 0, 1, 0, Outcome.REFUSED);
        recorder.dropped(0, 1 * MS, 5 * MS, 0, 1);

        MetricSnapshots all = scrape(7);
        Map<String, Double> requests = new LinkedHashMap<>();
        for (CounterSnapshot.CounterDataPointSnapshot point : ((CounterSnapshot) family(all, "loadsmith_tester_requests")).getDataPoints()) {
            assertThat(point.getLabels().get("scenario")).isEqualTo("score");
            assertThat(point.getLabels().get("tester")).isEqualTo("open");
            assertThat(point.getLabels().get("shard")).isEqualTo("1/3");
            assertThat(point.getLabels().get("run_id")).isEqualTo("2026-12-01T20:00:00Z");
            requests.put(point.getLabels().get("step") + " " + point.getLabels().get("outcome"), point.getValue());
        }
        Map<String, Double> dropped = new LinkedHashMap<>();
        ((CounterSnapshot) family(all, "loadsmith_tester_dropped")).getDataPoints()
                .forEach(point -> dropped.put(point.getLabels().get("step"), point.getValue()));

        assertThat(requests).containsExactly(Map.entry("login ok", 1.0), Map.entry("score ok", 2.0),
                Map.entry("score refused", 1.0));
        assertThat(dropped).containsExactly(Map.entry("login", 0.0), Map.entry("score", 1.0));
        assertThat(((GaugeSnapshot) family(all, "loadsmith_tester_in_flight")).getDataPoints().get(0).getValue()).isEqualTo(7);
    }

    @Test
    void latencies_fall_in_the_fixed_buckets_in_seconds_and_each_request_counts_in_all_three() {
        // intended 0, sent 0.2 ms late, answered 0.8 ms later: service 0.8 ms, corrected 1 ms, lateness 0.2 ms
        recorder.completed(0, 0, 200_000, 1 * MS, 0, 0, 200, Outcome.OK);
        // intended 0, sent on time, answered after 30 ms
        recorder.completed(0, 0, 0, 30 * MS, 0, 0, 200, Outcome.OK);

        MetricSnapshots all = scrape(0);

        assertThat(buckets(all, "loadsmith_tester_service_latency_seconds"))
                .containsEntry(0.0005, 0L).containsEntry(0.001, 1L).containsEntry(0.025, 1L).containsEntry(0.05, 2L)
                .containsEntry(Double.POSITIVE_INFINITY, 2L);
        assertThat(buckets(all, "loadsmith_tester_corrected_latency_seconds"))
                .containsEntry(0.0005, 0L).containsEntry(0.001, 1L).containsEntry(0.025, 1L).containsEntry(0.05, 2L);
        assertThat(buckets(all, "loadsmith_tester_send_lateness_seconds"))
                .containsEntry(0.00005, 1L).containsEntry(0.0001, 1L).containsEntry(0.00025, 2L);
        HistogramSnapshot.HistogramDataPointSnapshot corrected =
                ((HistogramSnapshot) family(all, "loadsmith_tester_corrected_latency_seconds")).getDataPoints().get(0);
        assertThat(corrected.getCount()).isEqualTo(2);
        assertThat(corrected.getSum()).isCloseTo(0.031, org.assertj.core.data.Offset.offset(0.031 * 0.01));
        assertThat(family(all, "loadsmith_tester_service_latency_seconds").getMetadata().getUnit().toString())
                .isEqualTo("seconds");
    }

    @Test
    void the_buckets_of_one_pass_equal_the_counts_between_values_at_every_bound() {
        org.HdrHistogram.Histogram micros = new org.HdrHistogram.Histogram(1, 3_600_000_000L, 2);
        java.util.Random random = new java.util.Random(3);
        for (int i = 0; i < 50_000; i++) { // spread over every decade, and right at, below and above each bound
            micros.recordValue(1 + (long) Math.exp(random.nextDouble() * 18));
        }
        for (double bound : LiveMetrics.BUCKETS_SECONDS) {
            if (bound != Double.POSITIVE_INFINITY) {
                long b = Math.round(bound * 1e6);
                micros.recordValue(b - 1);
                micros.recordValue(b);
                micros.recordValue(b + 1);
                micros.recordValue(micros.highestEquivalentValue(b) + 1);
            }
        }
        long[] counts = LiveMetrics.bucketCounts(micros);
        long below = 0;
        for (int i = 0; i < counts.length; i++) {
            double bound = LiveMetrics.BUCKETS_SECONDS[i];
            long upTo = bound == Double.POSITIVE_INFINITY ? micros.getTotalCount()
                    : micros.getCountBetweenValues(0, Math.min(Math.round(bound * 1e6), micros.getMaxValue()));
            assertThat(counts[i]).as("bucket le=%s", bound).isEqualTo(upTo - below);
            below = upTo;
        }
        assertThat(java.util.Arrays.stream(counts).sum()).isEqualTo(micros.getTotalCount());
    }

    /** Cumulative counts by upper bound, as Prometheus reads them. */
    private static Map<Double, Long> buckets(MetricSnapshots all, String name) {
        Map<Double, Long> cumulative = new LinkedHashMap<>();
        long sum = 0;
        for (ClassicHistogramBucket bucket : ((HistogramSnapshot) family(all, name)).getDataPoints().get(0).getClassicBuckets()) {
            sum += bucket.getCount();
            cumulative.put(bucket.getUpperBound(), sum);
        }
        assertThat(cumulative.keySet()).hasSize(LiveMetrics.BUCKETS_SECONDS.length);
        return cumulative;
    }

    @Test
    void the_phase_follows_the_engines_marks_and_the_clock() {
        assertThat(phase(scrape(0))).isEqualTo("starting");
        live.warmingUp(100 * MS);
        assertThat(phase(scrape(0))).isEqualTo("warmup");
        live.counting(1_000 * MS, 2_000 * MS);
        now[0] = 999 * MS;
        assertThat(phase(scrape(0))).isEqualTo("warmup");
        now[0] = 1_000 * MS;
        assertThat(phase(scrape(0))).isEqualTo("counted");
        now[0] = 3_000 * MS;
        assertThat(phase(scrape(0))).isEqualTo("grace");
        live.finished();
        assertThat(phase(scrape(0))).isEqualTo("done");
    }

    @Test
    void a_user_stop_starts_the_grace_at_once() {
        live.counting(0, 10_000 * MS);
        now[0] = 2_000 * MS;
        live.stopped(1_500 * MS);
        assertThat(phase(scrape(0))).isEqualTo("grace");
    }

    private static String phase(MetricSnapshots all) {
        GaugeSnapshot phases = (GaugeSnapshot) family(all, "loadsmith_tester_phase");
        assertThat(phases.getDataPoints()).hasSize(5);
        return phases.getDataPoints().stream().filter(p -> p.getValue() == 1).map(p -> p.getLabels().get("phase"))
                .reduce((a, b) -> a + "," + b).orElseThrow();
    }

    @Test
    void a_stall_window_is_active_from_its_plan_and_then_as_the_agent_reported_it() {
        live.stallPlanned("0", 0, 1_000 * MS, 1_100 * MS);
        live.stallPlanned("0", 1, 3_000 * MS, 3_100 * MS);
        now[0] = 1_050 * MS;
        assertThat(stalls(scrape(0))).isEqualTo("active 1, reported 0, seconds 0.0");
        live.stallReported("0", 0, 1_002 * MS, 1_102 * MS);
        now[0] = 1_101 * MS;
        assertThat(stalls(scrape(0))).isEqualTo("active 1, reported 1, seconds 0.1");
        now[0] = 1_102 * MS;
        assertThat(stalls(scrape(0))).isEqualTo("active 0, reported 1, seconds 0.1");
        now[0] = 3_000 * MS;
        assertThat(stalls(scrape(0))).isEqualTo("active 1, reported 1, seconds 0.1");
    }

    private static String stalls(MetricSnapshots all) {
        double active = ((GaugeSnapshot) family(all, "loadsmith_tester_stall_active")).getDataPoints().get(0).getValue();
        double reported = ((CounterSnapshot) family(all, "loadsmith_tester_stalls")).getDataPoints().get(0).getValue();
        double seconds = ((CounterSnapshot) family(all, "loadsmith_tester_stalled_seconds")).getDataPoints().get(0).getValue();
        return String.format(java.util.Locale.ROOT, "active %.0f, reported %.0f, seconds %.1f", active, reported, seconds);
    }
}
