package io.loadsmith.tester.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.transport.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GrpcStatusTest {

    @Test
    void codes_are_the_wire_numbers() {
        assertThat(GrpcStatus.OK.code()).isZero();
        assertThat(GrpcStatus.DEADLINE_EXCEEDED.code()).isEqualTo(4);
        assertThat(GrpcStatus.NOT_FOUND.code()).isEqualTo(5);
        assertThat(GrpcStatus.UNAVAILABLE.code()).isEqualTo(14);
        assertThat(GrpcStatus.UNAUTHENTICATED.code()).isEqualTo(16);
        for (GrpcStatus status : GrpcStatus.values()) {
            assertThat(GrpcStatus.ofCode(status.code())).isSameAs(status);
        }
    }

    @Test
    void a_number_grpc_does_not_define_is_unknown() {
        assertThat(GrpcStatus.ofCode(17)).isEqualTo(GrpcStatus.UNKNOWN);
        assertThat(GrpcStatus.ofCode(-1)).isEqualTo(GrpcStatus.UNKNOWN);
    }

    @ParameterizedTest
    @CsvSource({"0, OK", "5, NOT_FOUND", " 14 , UNAVAILABLE", "x, UNKNOWN", "'', UNKNOWN", "99, UNKNOWN"})
    void the_grpc_status_field_is_read_as_a_number(String field, GrpcStatus expected) {
        assertThat(GrpcStatus.ofField(field)).isEqualTo(expected);
    }

    @Test
    void names_are_read_in_any_case() {
        assertThat(GrpcStatus.named("not_found")).contains(GrpcStatus.NOT_FOUND);
        assertThat(GrpcStatus.named(" DEADLINE_EXCEEDED ")).contains(GrpcStatus.DEADLINE_EXCEEDED);
        assertThat(GrpcStatus.named("NOTFOUND")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({"400, INTERNAL", "401, UNAUTHENTICATED", "403, PERMISSION_DENIED", "404, UNIMPLEMENTED",
            "429, UNAVAILABLE", "502, UNAVAILABLE", "503, UNAVAILABLE", "504, UNAVAILABLE", "500, UNKNOWN",
            "200, UNKNOWN"})
    void an_answer_without_grpc_status_maps_its_http_status(int http, GrpcStatus expected) {
        assertThat(GrpcStatus.ofHttp(http)).isEqualTo(expected);
    }

    @Test
    void grpc_message_is_percent_decoded_utf8() {
        assertThat(GrpcStatus.message("no customer 7")).isEqualTo("no customer 7");
        assertThat(GrpcStatus.message("caf%C3%A9 %25 done")).isEqualTo("café % done");
        assertThat(GrpcStatus.message("100%")).isEqualTo("100%");
        assertThat(GrpcStatus.message("%zz%4")).isEqualTo("%zz%4");
        assertThat(GrpcStatus.message(null)).isNull();
    }

    @Test
    void an_answer_is_read_from_grpc_status_else_from_its_http_status() {
        assertThat(GrpcStatus.ofAnswer(200, "5")).isEqualTo(GrpcStatus.NOT_FOUND);
        assertThat(GrpcStatus.ofAnswer(503, "0")).isEqualTo(GrpcStatus.OK);
        assertThat(GrpcStatus.ofAnswer(503, null)).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(GrpcStatus.ofAnswer(200, null)).isEqualTo(GrpcStatus.INTERNAL);
    }

    @Test
    void a_failed_check_is_grpc_status_unless_the_status_was_ok() {
        assertThat(Outcome.ofGrpc(GrpcStatus.NOT_FOUND.code(), null)).isEqualTo(Outcome.OK);
        assertThat(Outcome.ofGrpc(GrpcStatus.NOT_FOUND.code(), "grpc-status NOT_FOUND, expected OK"))
                .isEqualTo(Outcome.GRPC_STATUS);
        assertThat(Outcome.ofGrpc(GrpcStatus.OK.code(), "json score is 0.7, expected 0.5"))
                .isEqualTo(Outcome.CHECK_FAILED);
    }
}
