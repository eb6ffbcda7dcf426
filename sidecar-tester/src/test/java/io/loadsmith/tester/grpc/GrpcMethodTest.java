package io.loadsmith.tester.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GrpcMethodTest {

    static GrpcMethod score;

    @BeforeAll
    static void load() throws IOException {
        score = ProtoSetTest.score();
    }

    @Test
    void a_json_body_becomes_the_framed_request_message() {
        // field 1 (customer_id), varint 42: tag 0x08, then 0x2a
        assertThat(score.encode("{\"customer_id\": 42}")).containsExactly(0, 0, 0, 0, 2, 0x08, 0x2a);
    }

    @Test
    void the_json_name_of_a_field_is_read_too() {
        assertThat(score.encode("{\"customerId\": 42}")).containsExactly(0, 0, 0, 0, 2, 0x08, 0x2a);
    }

    @Test
    void a_field_the_message_lacks_is_an_error_naming_it() {
        assertThatThrownBy(() -> score.encode("{\"customer\": 42}")).isInstanceOf(GrpcException.class)
                .hasMessage("does not fit scoring.ScoreRequest: Cannot find field: customer in message scoring.ScoreRequest");
    }

    @Test
    void a_value_of_the_wrong_type_is_an_error() {
        assertThatThrownBy(() -> score.encode("{\"customer_id\": \"abc\"}")).isInstanceOf(GrpcException.class)
                .hasMessageContaining("scoring.ScoreRequest");
    }

    @Test
    void text_that_is_not_json_is_an_error() {
        assertThatThrownBy(() -> score.encode("customer_id=42")).isInstanceOf(GrpcException.class)
                .hasMessageContaining("scoring.ScoreRequest");
    }

    @Test
    void an_answer_is_read_as_json_with_proto_field_names() {
        // customer_id 7 (08 07), score "0.5" (12 03 '0' '.' '5')
        byte[] body = {0, 0, 0, 0, 7, 0x08, 0x07, 0x12, 0x03, '0', '.', '5'};

        assertThat(score.decode(body)).isEqualTo("{\"customer_id\":7,\"score\":\"0.5\"}");
    }

    @Test
    void an_answer_shows_fields_at_their_default_value() {
        assertThat(score.decode(new byte[] {0, 0, 0, 0, 0})).isEqualTo("{\"customer_id\":0,\"score\":\"\"}");
    }

    @Test
    void an_answer_that_is_not_the_reply_message_is_an_error() {
        byte[] body = {0, 0, 0, 0, 2, 0x12, 0x05};

        assertThatThrownBy(() -> score.decode(body)).isInstanceOf(GrpcException.class)
                .hasMessageContaining("the answer is not a scoring.ScoreReply");
    }

    @Test
    void encode_then_decode_of_the_same_message_type_round_trips() {
        byte[] request = score.encode("{\"customer_id\": 123456}");

        assertThat(Arrays.copyOf(request, 5)).containsExactly(0, 0, 0, 0, 4);
        assertThat(score.decode(request)).isEqualTo("{\"customer_id\":123456,\"score\":\"\"}");
    }
}
