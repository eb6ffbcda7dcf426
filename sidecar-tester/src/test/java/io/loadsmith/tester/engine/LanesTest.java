package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.record.RunRecorder;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.schedule.Stage;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.transport.Lane;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.loadsmith.tester.engine.CoordinatedOmissionTest.MS;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.S;
import static io.loadsmith.tester.engine.CoordinatedOmissionTest.log;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs split over lanes on one virtual scheduler, each lane with a simulated server of its own (as each
 * event loop has its own connections): the union of the lanes is the one-lane run, and the run's files and
 * figures are one set.
 */
class LanesTest {

    @TempDir
    Path dir;

    static RunResult run(TesterSpec spec, int lanes, Path runDir, long stopAtNanos) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        List<Lane> all = new ArrayList<>();
        for (int i = 0; i < lanes; i++) {
            all.add(new Lane(scheduler, new SimulatedServer(scheduler, 2, ServiceTime.exponential(3 * MS), 100 + i)));
        }
        RunControl control = new RunControl();
        if (stopAtNanos > 0) {
            scheduler.at(stopAtNanos, control::stop);
        }
        return LoadRun.run(spec, all, RequestSource.get(URI), runDir, LoadRun.RunOptions.defaults().withControl(control));
    }

    static final java.net.URI URI = java.net.URI.create("http://simulated.invalid/");

    static TesterSpec poisson() {
        return TesterSpec.open(400).duration(5 * S).startDelay(0).seed(3).warmupRequests(50);
    }

    /** The intended sends of a run, from its counted start, in order. */
    static long[] intendedSorted(Path runDir) throws IOException {
        long start;
        try (RequestLog.Reader reader = RequestLog.read(runDir.resolve(RequestLog.FILE_NAME))) {
            start = reader.runStartNanos();
        }
        return log(runDir).stream().mapToLong(r -> r.intendedNanos() - start).sorted().toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void the_lanes_of_an_open_run_send_the_one_lane_schedule(int lanes) throws IOException {
        RunResult one = run(poisson(), 1, dir.resolve("one"), 0);
        RunResult split = run(poisson(), lanes, dir.resolve("split"), 0);

        assertThat(intendedSorted(dir.resolve("split"))).isEqualTo(intendedSorted(dir.resolve("one")));
        assertThat(split.counts().scheduled()).isEqualTo(one.counts().scheduled());
        CountsAddUp.check(split);
        assertThat(split.counts().sent()).isEqualTo(split.latencyMs().service().count());
        assertThat(split.timeline().stream().mapToLong(RunResult.TimelinePoint::count).sum())
                .isEqualTo(split.counts().sent());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void the_lanes_of_a_ramp_send_the_one_lane_schedule(int lanes) throws IOException {
        TesterSpec ramp = TesterSpec.ramp(0, List.of(new Stage(2 * S, 600), new Stage(2 * S, 100)))
                .startDelay(0).seed(8);
        run(ramp, 1, dir.resolve("one"), 0);
        RunResult split = run(ramp, lanes, dir.resolve("split"), 0);

        assertThat(intendedSorted(dir.resolve("split"))).isEqualTo(intendedSorted(dir.resolve("one")));
        CountsAddUp.check(split);
    }

    @Test
    void the_merged_request_log_is_in_the_order_requests_ended() throws IOException {
        run(poisson(), 3, dir, 0);
        List<RequestRecord> records = log(dir);

        assertThat(records).isNotEmpty();
        assertThat(records).extracting(RequestRecord::endNanos).isSorted();
    }

    @Test
    void the_merged_interval_log_adds_up_to_the_run_and_no_lane_files_are_left() throws IOException {
        RunResult result = run(poisson(), 3, dir, 0);

        Map<String, Histogram> sums = new HashMap<>();
        int intervals = 0;
        HistogramLogReader reader = new HistogramLogReader(dir.resolve(RunRecorder.HLOG_FILE_NAME).toFile());
        Histogram h;
        while ((h = (Histogram) reader.nextIntervalHistogram()) != null) {
            sums.computeIfAbsent(h.getTag(), t -> new Histogram(3)).add(h);
            intervals++;
        }
        assertThat(intervals).isEqualTo(2 * result.timeline().size());
        assertThat(sums.get("service").getTotalCount()).isEqualTo(result.counts().sent());
        assertThat(sums.get("corrected").getTotalCount()).isEqualTo(result.counts().sent());
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder(RequestLog.FILE_NAME, RunRecorder.HLOG_FILE_NAME);
        }
    }

    @Test
    void a_closed_run_over_two_lanes_uses_all_sixteen_connections() throws IOException {
        TesterSpec closed = TesterSpec.closed(16).duration(2 * S).startDelay(0).seed(1);
        RunResult result = run(closed, 2, dir, 0);

        assertThat(log(dir)).extracting(RequestRecord::connection).containsOnly(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        assertThat(log(dir).stream().map(RequestRecord::connection).distinct().count()).isEqualTo(16);
        CountsAddUp.check(result);
        assertThat(result.tester().connections()).isEqualTo(16);
    }

    @Test
    void a_paced_run_over_three_lanes_sends_the_one_lane_iterations() throws IOException {
        TesterSpec paced = TesterSpec.paced(7, 50 * MS).duration(2 * S).startDelay(0).seed(1);
        run(paced, 1, dir.resolve("one"), 0);
        RunResult split = run(paced, 3, dir.resolve("split"), 0);

        assertThat(intendedSorted(dir.resolve("split"))).isEqualTo(intendedSorted(dir.resolve("one")));
        CountsAddUp.check(split);
    }

    @Test
    void a_failure_in_one_lane_fails_the_run_and_leaves_no_lane_files() throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        List<Lane> lanes = List.of(
                new Lane(scheduler, new SimulatedServer(scheduler, 1, ServiceTime.constant(MS), 1)),
                new Lane(scheduler, new SimulatedServer(scheduler, 1, ServiceTime.constant(MS), 2)));
        RequestSource get = RequestSource.get(URI);
        RequestSource failing = (arrival, position, connection) -> {
            if (arrival == 100) {
                throw new IllegalStateException("no request for arrival 100");
            }
            return get.request(arrival, position, connection);
        };

        assertThatThrownBy(() -> LoadRun.run(poisson(), lanes, failing, dir, LoadRun.RunOptions.defaults()))
                .isInstanceOf(IllegalStateException.class).hasMessage("no request for arrival 100");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void a_user_stop_reaches_every_lane() throws IOException {
        RunResult result = run(poisson(), 2, dir, 2 * S);

        assertThat(result.interrupted()).isTrue();
        CountsAddUp.check(result);
        assertThat(log(dir)).allSatisfy(r -> assertThat(r.intendedNanos()).isLessThan(result.startNs() + 2 * S));
        assertThat(result.durationMs()).isEqualTo((2 * S - result.startNs()) / 1e6);
    }
}
