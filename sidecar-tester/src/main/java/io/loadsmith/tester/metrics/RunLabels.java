package io.loadsmith.tester.metrics;

import io.prometheus.metrics.model.snapshots.Labels;

/**
 * The labels on every series of a run's metrics: which scenario, which tester (its load model), which shard
 * of a split load ({@code I/N}, {@code 0/1} when not split) and which run: its results folder's name, or
 * with {@code --start-at} that instant (ISO-8601), which every shard of one load shares.
 */
public record RunLabels(String scenario, String tester, String shard, String runId) {

    Labels labels() {
        return Labels.of("run_id", runId, "scenario", scenario, "shard", shard, "tester", tester);
    }
}
