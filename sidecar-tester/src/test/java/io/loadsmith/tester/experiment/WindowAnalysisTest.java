package io.loadsmith.tester.experiment;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class WindowAnalysisTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    @Test
    void a_long_run_is_cut_into_windows_whose_p99s_show_what_short_tests_would_have_reported(@TempDir Path dir)
            throws Exception {
        Path log = dir.resolve(RequestLog.FILE_NAME);
        long start = 1000 * S;
        try (RequestLog.Writer writer = RequestLog.create(log, start)) {
            // window 0: 200 requests of 1 ms; window 1: 200 requests of which 10 took 50 ms; window 2: 50 requests
            for (int i = 0; i < 200; i++) {
                long t = start + i * 5 * MS;
                writer.append(t, t, t + MS, -1, 0, 200, Outcome.OK);
            }
            for (int i = 0; i < 200; i++) {
                long t = start + S + i * 5 * MS;
                writer.append(t, t, t + (i < 10 ? 50 * MS : MS), -1, 0, 200, Outcome.OK);
            }
            for (int i = 0; i < 50; i++) {
                long t = start + 2 * S + i * 5 * MS;
                writer.append(t, t, t + MS, -1, 0, 200, Outcome.OK);
            }
            writer.append(start - S, start - S, start - S + MS, -1, 0, 200, Outcome.OK); // warm-up: left out
        }

        WindowAnalysis windows = WindowAnalysis.of(log, S);

        assertThat(windows.windows()).extracting(WindowAnalysis.WindowStats::fromSeconds).containsExactly(0.0, 1.0);
        assertThat(windows.windows()).extracting(WindowAnalysis.WindowStats::requests).containsExactly(200L, 200L);
        assertThat(windows.minP99Ms()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.001));
        assertThat(windows.maxP99Ms()).isCloseTo(50.0, org.assertj.core.data.Offset.offset(0.05));
        assertThat(windows.spread()).isCloseTo(50.0, org.assertj.core.data.Offset.offset(0.1));
    }
}
