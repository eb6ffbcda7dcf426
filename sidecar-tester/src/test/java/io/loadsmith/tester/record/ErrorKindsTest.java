package io.loadsmith.tester.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.transport.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorKindsTest {

    @Test
    void outcomes_count_by_name_and_grpc_statuses_by_theirs() {
        ErrorKinds kinds = new ErrorKinds();
        kinds.count(Outcome.GRPC_STATUS, GrpcStatus.NOT_FOUND.code());
        kinds.count(Outcome.TIMEOUT, 0);
        kinds.count(Outcome.GRPC_STATUS, GrpcStatus.NOT_FOUND.code());
        kinds.count(Outcome.GRPC_STATUS, GrpcStatus.DEADLINE_EXCEEDED.code());
        kinds.count(Outcome.HTTP_STATUS, 503);

        assertThat(kinds.asMap()).containsExactly(Map.entry("http_status", 1L), Map.entry("timeout", 1L),
                Map.entry("DEADLINE_EXCEEDED", 1L), Map.entry("NOT_FOUND", 2L));
    }

    @Test
    void no_error_is_an_empty_map_and_lanes_add_up() {
        ErrorKinds a = new ErrorKinds();
        ErrorKinds b = new ErrorKinds();
        assertThat(a.asMap()).isEmpty();
        b.count(Outcome.GRPC_STATUS, GrpcStatus.UNAVAILABLE.code());
        b.count(Outcome.REFUSED, 0);

        a.add(b);
        a.add(b);

        assertThat(a.asMap()).containsExactly(Map.entry("refused", 2L), Map.entry("UNAVAILABLE", 2L));
    }

    @Test
    void the_recorder_counts_each_error_of_the_run_and_of_its_step() {
        RunRecorder recorder = RunRecorder.discarding(0, 1_000_000, 0, step -> "s" + step, false);
        recorder.completed(0, 0, 1, 2, 0, 0, GrpcStatus.NOT_FOUND.code(), Outcome.GRPC_STATUS);
        recorder.completed(0, 0, 1, 2, 0, 1, 200, Outcome.OK);
        recorder.completed(0, 0, 1, 2, 0, 1, 200, Outcome.CHECK_FAILED);

        assertThat(recorder.total().errorKinds().asMap()).containsExactly(Map.entry("check_failed", 1L),
                Map.entry("NOT_FOUND", 1L));
        assertThat(List.of(recorder.steps().get(0).errorKinds().asMap(), recorder.steps().get(1).errorKinds().asMap()))
                .containsExactly(Map.of("NOT_FOUND", 1L), Map.of("check_failed", 1L));
    }
}
