package io.loadsmith.tester.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class GrpcTimeoutTest {

    @ParameterizedTest
    @CsvSource({"1, 1n", "99999999, 99999999n", "100000000, 100000u", "500000000, 500000u",
            "100000000001, 100001m", "100000000000000, 100000S", "360000000000000000, 6000000M"})
    void the_finest_unit_that_holds_the_value_rounded_up(long nanos, String field) {
        assertThat(GrpcTimeout.format(nanos)).isEqualTo(field);
        assertThat(GrpcTimeout.parseNanos(field)).isGreaterThanOrEqualTo(nanos);
    }

    @Test
    void a_deadline_must_be_positive() {
        assertThatThrownBy(() -> GrpcTimeout.format(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"500m, 500000000", "2S, 2000000000", "1H, 3600000000000", "3u, 3000"})
    void a_field_is_read_back(String field, long nanos) {
        assertThat(GrpcTimeout.parseNanos(field)).isEqualTo(nanos);
    }

    @ParameterizedTest
    @CsvSource({"m", "5", "5x", "-5m", "123456789m", "''"})
    void a_field_that_is_not_a_timeout_is_minus_one(String field) {
        assertThat(GrpcTimeout.parseNanos(field)).isEqualTo(-1);
    }
}
