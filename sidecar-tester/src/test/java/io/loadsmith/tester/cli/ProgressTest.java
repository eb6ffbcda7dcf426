package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.record.Histograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ProgressTest {

    @Test
    void the_live_line_shows_corrected_p99_so_far_and_errors() {
        Histogram corrected = Histograms.create();
        for (int i = 0; i < 299; i++) {
            corrected.recordValue(2_000); // 2 ms
        }
        corrected.recordValue(1_500_000); // 1.5 s: one request in 300 a stall held, under 1%: p99 stays 2 ms

        assertThat(Progress.line(2.0, 400, 3, corrected, 7))
                .isEqualTo("   2.0s  sent 400  200/s  in flight 3  corrected p99 so far 2.00 ms  errors 7");
    }

    @Test
    void before_any_answer_the_p99_is_zero() {
        assertThat(Progress.line(0.5, 0, 0, Histograms.create(), 0))
                .isEqualTo("   0.5s  sent 0  0/s  in flight 0  corrected p99 so far 0.00 ms  errors 0");
    }
}
