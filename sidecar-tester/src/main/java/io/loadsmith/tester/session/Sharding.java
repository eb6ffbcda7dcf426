package io.loadsmith.tester.session;

import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.ResultsFile;

import java.util.ArrayList;
import java.util.List;

/**
 * A run's place in a load split across processes ({@code run --shard I/N}) and its common start
 * ({@code --start-at}); docs/scale-out.md.
 *
 * @param index          this shard, in [0, count)
 * @param count          how many shards split the load (1: not sharded)
 * @param startAtEpochMs when the counted run starts, epoch milliseconds; null: as soon as it is ready
 */
public record Sharding(int index, int count, Long startAtEpochMs) {

    /** One process runs the whole load, starting when ready. */
    public static final Sharding NONE = new Sharding(0, 1, null);

    public Sharding {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard must be I/N with 0 <= I < N (got " + index + "/" + count + ")");
        }
    }

    /** True when the load is split (N > 1). */
    public boolean sharded() {
        return count > 1;
    }

    /** The tester as this shard runs it, the start (if any) put on the monotonic clock through {@code wall}. */
    TesterSpec apply(TesterSpec tester, WallClock wall) {
        TesterSpec sharded = count == 1 ? tester : tester.shard(index, count);
        return startAtEpochMs == null || wall == null ? sharded
                : sharded.startAt(wall.toMonotonicNanos(startAtEpochMs));
    }

    /** What results.json says of the split; null when not sharded. */
    ResultsFile.Shard describe(TesterSpec tester) {
        if (!sharded()) {
            return null;
        }
        return new ResultsFile.Shard(index, count, tester.model() == TesterSpec.Model.OPEN ? null
                : connections(tester.connections(), index, count));
    }

    /** The connections k in [0, connections) that shard {@code index} of {@code count} runs: k mod count = index. */
    public static List<Integer> connections(int connections, int index, int count) {
        List<Integer> mine = new ArrayList<>();
        for (int k = index; k < connections; k += count) {
            mine.add(k);
        }
        return mine;
    }
}
