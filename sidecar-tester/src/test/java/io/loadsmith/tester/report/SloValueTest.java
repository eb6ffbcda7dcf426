package io.loadsmith.tester.report;

import io.loadsmith.tester.result.ResultsFile.SloResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SloValueTest {

    @Test
    void a_latency_slo_shows_value_ms_and_a_share_slo_shows_value_percent() {
        assertThat(SloSection.sloValue(new SloResult("p99 < 500ms", 510.0, null, false))).isEqualTo("510 ms");
        assertThat(SloSection.sloValue(new SloResult("errors < 0.1%", null, 0.25, false))).isEqualTo("0.25%");
    }

    @Test
    void an_older_file_with_the_share_in_value_ms_still_shows_a_percentage() {
        assertThat(SloSection.sloValue(new SloResult("above(10ms) < 1%", 0.5, null, true))).isEqualTo("0.5%");
    }

    @Test
    void an_slo_without_a_value_shows_none() {
        assertThat(SloSection.sloValue(new SloResult("p99 < 5ms", null, null, false)))
                .isEqualTo(SloSection.sloValue(new SloResult("x", null, null, false)));
    }
}
