package io.loadsmith.tester.engine;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static io.loadsmith.tester.engine.CoordinatedOmissionTest.MS;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.S;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.log;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One paced connection, pace 100 ms, 2 s (iterations at 0.0, 0.1, ... 1.9 s), a constant 10 ms server and a
 * stall [1.05 s, 1.35 s). Iteration 11 (intended 1.1 s) is held until 1.35 s and ends at 1.36 s.
 */
class PacedTesterTest {

    static final Simulation.SimulatedTarget TARGET = new Simulation.SimulatedTarget(1, ServiceTime.constant(10 * MS),
            StallPlan.explicit(List.of(new PlannedStall(0, 1050 * MS, 300 * MS)), StallKind.BLOCK));

    @TempDir
    Path dir;

    static TesterSpec paced(TesterSpec.OnLate onLate) {
        return TesterSpec.paced(1, 100 * MS).onLate(onLate).duration(2 * S).objective(50 * MS).startDelay(0);
    }

    @Test
    void catch_up_sends_late_iterations_when_the_answer_is_back_and_charges_the_lateness() throws IOException {
        RunResult result = Simulation.run(paced(TesterSpec.OnLate.CATCH_UP), TARGET, null, dir);
        List<RequestRecord> records = log(dir);

        // iteration 12 (1.2 s) is sent at 1.36 s and ends at 1.37 s; iteration 13 (1.3 s) at 1.37 s, ends 1.38 s
        RequestRecord twelve = records.get(12);
        assertThat(twelve.intendedNanos()).isEqualTo(1200 * MS);
        assertThat(twelve.sentNanos()).isEqualTo(1360 * MS);
        assertThat(twelve.serviceNanos()).isEqualTo(10 * MS);
        assertThat(twelve.correctedNanos()).isEqualTo(170 * MS);
        RequestRecord thirteen = records.get(13);
        assertThat(thirteen.sentNanos()).isEqualTo(1370 * MS);
        assertThat(thirteen.correctedNanos()).isEqualTo(80 * MS);
        assertThat(records.get(14).sentNanos()).isEqualTo(1400 * MS);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(20, 20, 20, 0, 0, 0, 0));
        CountsAddUp.check(result);
        // corrected above 50 ms: iterations 11 (260 ms), 12 (170 ms), 13 (80 ms); service: only 11
        assertThat(result.aboveObjective()).isEqualTo(new RunResult.AboveObjective(50.0, 1, 3));
        assertThat(result.waits()).isEqualTo(new RunResult.Waits(2, 160.0 + 70.0, 160.0));
        assertThat(result.sendLatenessMs().max()).isBetween(160.0, 160.2);
    }

    @Test
    void skip_does_not_send_missed_iterations_and_counts_them() throws IOException {
        RunResult result = Simulation.run(paced(TesterSpec.OnLate.SKIP), TARGET, null, dir);
        List<RequestRecord> records = log(dir);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(20, 18, 18, 0, 0, 2, 0));
        CountsAddUp.check(result);
        assertThat(records.get(11).endNanos()).isEqualTo(1360 * MS);
        assertThat(records.get(12).intendedNanos()).isEqualTo(1400 * MS);
        assertThat(records.get(12).sentNanos()).isEqualTo(1400 * MS);
        assertThat(result.aboveObjective()).isEqualTo(new RunResult.AboveObjective(50.0, 1, 1));
        assertThat(result.warnings()).anySatisfy(w -> assertThat(w).startsWith("2 paced iterations were skipped"));
    }

    @Test
    void connections_are_spread_evenly_over_the_pace() throws IOException {
        TesterSpec spec = TesterSpec.paced(4, 100 * MS).duration(1 * S).startDelay(0);
        RunResult result = Simulation.run(spec, new Simulation.SimulatedTarget(4, ServiceTime.constant(MS), null), null, dir);
        List<RequestRecord> records = log(dir);

        assertThat(result.counts().sent()).isEqualTo(40);
        assertThat(records.stream().filter(r -> r.intendedNanos() < 100 * MS).map(RequestRecord::intendedNanos))
                .containsExactly(0L, 25 * MS, 50 * MS, 75 * MS);
        assertThat(records.stream().filter(r -> r.connection() == 3).map(RequestRecord::intendedNanos).toList())
                .startsWith(75 * MS, 175 * MS, 275 * MS);
    }
}
