package io.loadsmith.tester.metrics;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.TransportStats;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Locale;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The tester's live figures as Prometheus metric families, built from a run's {@link LiveStats} at each scrape
 * (on the scraping thread: the send loop only fills the {@link LiveStats}). Every series carries the run's
 * {@link RunLabels}. Names and meanings: docs/watching.md.
 */
final class LiveMetrics implements MultiCollector {

    /**
     * The upper bounds (seconds) of every latency histogram, the same on every shard and every run, so that
     * {@code sum by (le)} across shards is exact: 1, 2.5 and 5 of each decade from 50 µs to 60 s (the
     * quantile read from them is off by at most the width of one bucket; the run's files keep the exact ones).
     */
    static final double[] BUCKETS_SECONDS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
        1, 2.5, 5, 10, 25, 60, Double.POSITIVE_INFINITY
    };

    /** The finite bounds of {@link #BUCKETS_SECONDS} in µs, the unit of the live histograms. */
    private static final long[] BOUNDS_MICROS = new long[BUCKETS_SECONDS.length - 1];

    static {
        for (int i = 0; i < BOUNDS_MICROS.length; i++) {
            BOUNDS_MICROS[i] = Math.round(BUCKETS_SECONDS[i] * 1e6);
        }
    }

    private final LiveStats live;
    private final Labels labels;
    private final Clock clock;
    private final Supplier<TransportStats> transport;

    /**
     * @param transport the run's transport counts once it is open, else null (read at each scrape)
     */
    LiveMetrics(LiveStats live, RunLabels labels, Clock clock, Supplier<TransportStats> transport) {
        this.live = live;
        this.labels = labels.labels();
        this.clock = clock;
        this.transport = transport;
    }

    @Override
    public MetricSnapshots collect() {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        all.metricSnapshot(requests());
        all.metricSnapshot(dropped());
        all.metricSnapshot(inFlight());
        all.metricSnapshot(histogram("loadsmith_tester_service_latency_seconds",
                "Service latency of the counted run's requests: end - actual send.", LiveStats.LatencyKind.SERVICE));
        all.metricSnapshot(histogram("loadsmith_tester_corrected_latency_seconds",
                "Corrected latency of the counted run's requests: end - intended send (closed loop: - actual send).",
                LiveStats.LatencyKind.CORRECTED));
        all.metricSnapshot(histogram("loadsmith_tester_send_lateness_seconds",
                "Send lateness of the counted run's requests: actual send - intended send.",
                LiveStats.LatencyKind.SEND_LATENESS));
        all.metricSnapshot(phase());
        stalls(all);
        return all.build();
    }

    private CounterSnapshot requests() {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name("loadsmith_tester_requests")
                .help("Requests of the counted run that ended (answered or failed), by step and outcome.");
        for (int step = 0; step < LiveStats.STEPS; step++) {
            for (Outcome outcome : Outcome.values()) {
                long count = live.ended(step, outcome);
                if (count > 0 || (step == 0 && outcome == Outcome.OK)) {
                    family.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                            .labels(labels.merge(new String[] {"outcome", "step"},
                                    new String[] {outcome.name().toLowerCase(Locale.ROOT), live.stepName(step)}))
                            .value(count).build());
                }
            }
        }
        return family.build();
    }

    private CounterSnapshot dropped() {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name("loadsmith_tester_dropped")
                .help("Requests of the counted run cancelled unanswered at the end of the grace, by step.");
        for (int step = 0; step < LiveStats.STEPS; step++) {
            long count = live.dropped(step);
            if (count > 0 || step == 0) {
                family.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                        .labels(labels.add("step", live.stepName(step))).value(count).build());
            }
        }
        return family.build();
    }

    private GaugeSnapshot inFlight() {
        TransportStats counts = transport.get();
        return GaugeSnapshot.builder().name("loadsmith_tester_in_flight")
                .help("Requests sent and not yet ended (warm-up included).")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
                        .value(counts == null ? 0 : counts.inFlight()).build())
                .build();
    }

    private HistogramSnapshot histogram(String name, String help, LiveStats.LatencyKind latency) {
        HistogramSnapshot.HistogramDataPointSnapshot point = live.read(latency, micros ->
                HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels)
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(BUCKETS_SECONDS, bucketCounts(micros)))
                        .sum(micros.getTotalCount() == 0 ? 0 : micros.getMean() * micros.getTotalCount() / 1e6)
                        .build());
        return HistogramSnapshot.builder().name(name).help(help).unit(Unit.SECONDS).dataPoint(point).build();
    }

    /**
     * The count of each bucket of {@link #BUCKETS_SECONDS} (not cumulative) from a histogram in µs, in one pass
     * over its recorded values (a scrape reads three of them every second): a value counts in the first bucket
     * whose bound is at or above the lowest value of its HdrHistogram bucket, so a value within the histogram's
     * precision of a bound counts in at or below it, as {@link Histogram#getCountBetweenValues} would.
     */
    static long[] bucketCounts(Histogram micros) {
        long[] counts = new long[BUCKETS_SECONDS.length];
        int bucket = 0;
        for (HistogramIterationValue value : micros.recordedValues()) {
            long lowest = micros.lowestEquivalentValue(value.getValueIteratedTo());
            while (bucket < BOUNDS_MICROS.length && lowest > BOUNDS_MICROS[bucket]) {
                bucket++;
            }
            counts[bucket] += value.getCountAtValueIteratedTo();
        }
        return counts;
    }

    private GaugeSnapshot phase() {
        LiveStats.RunPhase now = live.phase(clock.nanoTime());
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name("loadsmith_tester_phase")
                .help("1 for the phase the run is in (starting, warmup, counted, grace, done), 0 for the others.");
        for (LiveStats.RunPhase phase : LiveStats.RunPhase.values()) {
            family.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(labels.add("phase", phase.name().toLowerCase(Locale.ROOT)))
                    .value(phase == now ? 1 : 0).build());
        }
        return family.build();
    }

    private void stalls(MetricSnapshots.Builder all) {
        long now = clock.nanoTime();
        boolean active = false;
        long reported = 0;
        long reportedNanos = 0;
        for (LiveStats.LiveWindow window : live.stalls()) {
            active |= now >= window.startNanos() && now < window.endNanos();
            if (window.reported()) {
                reported++;
                reportedNanos += window.endNanos() - window.startNanos();
            }
        }
        all.metricSnapshot(GaugeSnapshot.builder().name("loadsmith_tester_stall_active")
                .help("1 inside a stall window of the armed agent (its plan until the agent reports the window, "
                        + "then the window as it was), else 0.")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(active ? 1 : 0).build())
                .build());
        all.metricSnapshot(CounterSnapshot.builder().name("loadsmith_tester_stalls")
                .help("Stall windows of this run that the agent reported ended.")
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(reported).build())
                .build());
        all.metricSnapshot(CounterSnapshot.builder().name("loadsmith_tester_stalled_seconds")
                .help("Time inside the stall windows the agent reported ended, in seconds.")
                .unit(Unit.SECONDS)
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
                        .value(reportedNanos / 1e9).build())
                .build());
    }
}
