package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.simulate.Simulation;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.loadsmith.tester.engine.CoordinatedOmissionTest.MS;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.S;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.TARGET;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.closedSpec;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.log;
import static org.assertj.core.api.Assertions.assertThat;

/** The estimated view is HdrHistogram's own expected-interval correction of service latency, nothing else. */
class EstimatedViewTest {

    @TempDir
    Path dir;

    static Histogram reference(List<RequestRecord> records, long intervalMicros) {
        Histogram reference = Histograms.create();
        for (RequestRecord r : records) {
            reference.recordValueWithExpectedInterval(Histograms.micros(r.serviceNanos()), intervalMicros);
        }
        return reference;
    }

    @Test
    void paced_estimate_is_record_value_with_expected_interval_of_the_pace_on_service_latency() throws IOException {
        RunResult result = Simulation.run(PacedTesterTest.paced(TesterSpec.OnLate.CATCH_UP), PacedTesterTest.TARGET,
                null, dir);
        Histogram reference = reference(log(dir), 100_000);

        // the 260 ms answer adds the one value HdrHistogram infers at or above the interval, 160 ms
        // (60 ms is below the 100 ms interval, so it is not added): 20 + 1 values
        assertThat(result.latencyMs().estimated().count()).isEqualTo(21);
        assertThat(result.latencyMs().estimated()).isEqualTo(ResultAssembler.latency(reference));
        assertThat(result.estimate().intervalMs()).isEqualTo(100.0);
        assertThat(result.estimate().intervalSource()).isEqualTo("pace");
        // never applied on top of corrected latency, which is already measured from the intended time
        assertThat(result.latencyMs().corrected().count()).isEqualTo(20);
    }

    @Test
    void closed_estimate_with_a_configured_interval_fills_in_the_sends_the_stall_suppressed() throws IOException {
        RunResult result = Simulation.run(closedSpec().expectedInterval(10 * MS), TARGET, null, dir);
        Histogram reference = reference(log(dir), 10_000);

        // the 2.01 s answer stands for 200 more at 2.00 s, 1.99 s, ... 0.01 s
        assertThat(result.latencyMs().estimated().count()).isEqualTo(5800 + 200);
        assertThat(result.latencyMs().estimated()).isEqualTo(ResultAssembler.latency(reference));
        assertThat(result.estimate().intervalSource()).isEqualTo("configured");
    }

    @Test
    void closed_estimate_without_an_interval_uses_the_measured_mean_interval_of_a_connection() throws IOException {
        RunResult result = Simulation.run(closedSpec(), TARGET, null, dir);
        long intervalMicros = Histograms.micros(60 * S / 5800);
        Histogram reference = reference(log(dir), intervalMicros);

        assertThat(result.estimate().intervalSource()).isEqualTo("measured");
        assertThat(result.estimate().intervalMs()).isEqualTo(intervalMicros / 1000.0);
        assertThat(result.latencyMs().estimated()).isEqualTo(ResultAssembler.latency(reference));
    }
}
