package io.loadsmith.tester.align;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PauseAlignmentTest {

    private static final long MS = 1_000_000L;

    /** A safepoint [100 ms, 150 ms) and the sleeper window that saw it, [101 ms, 160 ms). */
    private static final AlignedPause SAFEPOINT = new AlignedPause(0, "safepoint", "GenCollectFull SerialOld (System.gc())",
            100 * MS, 150 * MS, 3 * MS);
    private static final AlignedPause SLEEPER = new AlignedPause(1, "sleeper", "attributed", 101 * MS, 160 * MS, null);

    @Test
    void a_send_inside_two_overlapping_pauses_counts_for_each_and_the_summary_covers_their_union(@TempDir Path dir)
            throws IOException {
        Path log = log(dir, new long[][] {{90 * MS, 90 * MS, 155 * MS}, {120 * MS, 120 * MS, 121 * MS},
                {155 * MS, 155 * MS, 156 * MS}, {300 * MS, 300 * MS, 301 * MS}});

        PauseAlignment aligned = PauseAlignment.alignLog(log, List.of(SLEEPER, SAFEPOINT), 1000 * MS, null);

        var safepoint = aligned.pauses().get(0);
        var sleeper = aligned.pauses().get(1);
        assertThat(safepoint.window()).isEqualTo(SAFEPOINT);
        assertThat(safepoint.sentDuring()).isEqualTo(1);
        assertThat(sleeper.sentDuring()).isEqualTo(2);
        assertThat(safepoint.inFlightAtStart()).isEqualTo(1);
        assertThat(safepoint.overlapping()).isEqualTo(2);
        assertThat(sleeper.overlapping()).isEqualTo(3);
        assertThat(aligned.summary()).isEqualTo(new PauseAlignment.PauseCounts(2, 2, 3, 3, 4, 60 * MS));
        assertThat(aligned.summary().overlappingShare()).isEqualTo(0.75);
        assertThat(aligned.bins()).isNull();
        assertThat(aligned.sendsPerBin()).isEmpty();
    }

    @Test
    void a_pause_that_ends_after_the_counted_span_is_listed_but_not_met(@TempDir Path dir) throws IOException {
        Path log = log(dir, new long[][] {{950 * MS, 950 * MS, 951 * MS}, {990 * MS, 990 * MS, 1010 * MS}});
        AlignedPause late = new AlignedPause(5, "sleeper", "host", 980 * MS, 1020 * MS, null);

        PauseAlignment aligned = PauseAlignment.alignLog(log, List.of(late), 1000 * MS, null);

        assertThat(aligned.pauses().get(0).met()).isFalse();
        assertThat(aligned.pauses().get(0).sentDuring()).isEqualTo(1);
        assertThat(aligned.summary()).isEqualTo(new PauseAlignment.PauseCounts(1, 0, 0, 0, 2, 0));
    }

    @Test
    void the_plot_is_binned_for_the_longest_pause_met() {
        assertThat(PauseAlignment.binsFor(List.of(SAFEPOINT, SLEEPER))).isEqualTo(AlignedBins.forStall(59 * MS));
        assertThat(PauseAlignment.binsFor(List.of())).isNull();
    }

    @Test
    void sends_are_binned_by_time_from_the_start_of_each_pause_met(@TempDir Path dir) throws IOException {
        Path log = log(dir, new long[][] {{100 * MS, 100 * MS, 101 * MS}, {103 * MS, 103 * MS, 104 * MS}});
        AlignedBins bins = AlignedBins.forStall(50 * MS);

        PauseAlignment aligned = PauseAlignment.alignLog(log, List.of(SAFEPOINT), 1000 * MS, bins);

        double[] perBin = aligned.sendsPerBin();
        assertThat(aligned.bins()).isEqualTo(bins);
        assertThat(perBin[bins.binOf(0)]).isEqualTo(1.0);
        assertThat(perBin[bins.binOf(3 * MS)]).isEqualTo(1.0);
        assertThat(java.util.Arrays.stream(perBin).sum()).isEqualTo(2.0);
    }

    private static Path log(Path dir, long[][] requests) throws IOException {
        Path file = dir.resolve("requests.bin");
        try (RequestLog.Writer writer = RequestLog.create(file, 0)) {
            for (long[] r : requests) {
                writer.append(r[0], r[1], r[2], 0, 0, 200, Outcome.OK);
            }
        }
        return file;
    }
}
