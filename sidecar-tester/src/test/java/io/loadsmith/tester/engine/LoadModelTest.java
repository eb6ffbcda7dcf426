package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import static io.loadsmith.tester.engine.CoordinatedOmissionTest.MS;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.S;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Each load model with journeys of several steps on one phase, whose journey objects are reused once
 * answered: every step follows its own journey's previous step, whatever other journeys do meanwhile.
 */
class LoadModelTest {

    @TempDir
    Path dir;

    private final VirtualScheduler scheduler = new VirtualScheduler();

    /** Answers every request serviceNanos after it is sent; every failEvery-th request sent (0: none) fails. */
    private Transport answering(long serviceNanos, int failEvery) {
        return new Transport() {
            private long sent;

            @Override
            public void send(RequestSpec request, Exchange exchange) {
                long now = scheduler.nanoTime();
                exchange.sent(now);
                boolean fail = failEvery > 0 && ++sent % failEvery == 0;
                exchange.completed(now + serviceNanos, fail ? 500 : 200, fail ? Outcome.HTTP_STATUS : Outcome.OK,
                        fail ? "500" : null);
            }

            @Override
            public void cancelAll() {
            }
        };
    }

    /** Journeys of the given number of steps (step ids 1..steps), no think time. */
    private static RequestSource steps(int steps) {
        return (arrival, position, connection) -> position < steps
                ? RequestSpec.get(Simulation.SIMULATED_URI, connection, position + 1) : null;
    }

    private RunResult run(TesterSpec spec, Transport transport, RequestSource source) throws IOException {
        RunResult result = LoadRun.run(spec.startDelay(0), scheduler, transport, source, dir);
        CountsAddUp.check(result);
        return result;
    }

    @Test
    void open_journeys_overlap_and_each_step_starts_when_its_own_previous_step_ends() throws IOException {
        RunResult result = run(TesterSpec.open(1000).arrivals(TesterSpec.Arrivals.CONSTANT).duration(S),
                answering(5 * MS, 0), steps(3));
        List<RequestRecord> records = log(dir);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(3000, 3000, 3000, 0, 0, 0, 0));
        for (int step = 1; step <= 3; step++) {
            long offset = (step - 1) * 5 * MS;
            int id = step;
            assertThat(records.stream().filter(r -> r.step() == id).mapToLong(RequestRecord::intendedNanos).sorted())
                    .as("step %d", step).containsExactlyElementsOf(
                            LongStream.range(0, 1000).map(k -> k * MS + offset).boxed().toList());
        }
    }

    @Test
    void closed_connections_run_their_journeys_step_by_step_and_an_error_ends_a_journey() throws IOException {
        RunResult result = run(TesterSpec.closed(2).duration(S), answering(MS, 4), steps(3));
        List<RequestRecord> records = log(dir);

        assertThat(result.counts().errors()).isEqualTo(result.counts().sent() / 4);
        for (int connection = 0; connection < 2; connection++) {
            int expectedStep = 1;
            long expectedIntended = 0;
            for (RequestRecord r : records) {
                if (r.connection() != connection) {
                    continue;
                }
                assertThat(r.step()).isEqualTo(expectedStep);
                assertThat(r.intendedNanos()).isEqualTo(expectedIntended);
                boolean journeyGoesOn = r.outcome() == Outcome.OK && r.step() < 3;
                expectedStep = journeyGoesOn ? r.step() + 1 : 1;
                expectedIntended = r.endNanos();
            }
        }
        // no journey starts at or after the end; the one started at 0.999 s still sends its later steps
        assertThat(records).filteredOn(r -> r.connection() == 0 && r.intendedNanos() >= 999 * MS)
                .extracting(RequestRecord::step, RequestRecord::intendedNanos)
                .containsExactly(tuple(1, 999 * MS), tuple(2, 1000 * MS), tuple(3, 1001 * MS));
    }

    @Test
    void paced_iterations_start_on_the_pace_and_their_later_steps_follow_the_answers() throws IOException {
        RunResult result = run(TesterSpec.paced(2, 10 * MS).duration(S), answering(MS, 0), steps(2));
        List<RequestRecord> records = log(dir);

        assertThat(result.counts()).isEqualTo(new RunResult.Counts(400, 400, 400, 0, 0, 0, 0));
        assertThat(result.waits().count()).isZero();
        assertThat(records).filteredOn(r -> r.step() == 1 && r.connection() == 1)
                .extracting(RequestRecord::intendedNanos)
                .containsExactlyElementsOf(LongStream.range(0, 100).map(n -> 5 * MS + n * 10 * MS).boxed().toList());
        assertThat(records).filteredOn(r -> r.step() == 2 && r.connection() == 1)
                .extracting(RequestRecord::intendedNanos)
                .containsExactlyElementsOf(LongStream.range(0, 100).map(n -> 6 * MS + n * 10 * MS).boxed().toList());
    }
}
