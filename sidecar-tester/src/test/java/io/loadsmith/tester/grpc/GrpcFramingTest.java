package io.loadsmith.tester.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class GrpcFramingTest {

    @Test
    void a_message_gets_a_zero_flag_and_its_big_endian_length() {
        byte[] message = new byte[0x010203];
        Arrays.fill(message, (byte) 7);

        byte[] framed = GrpcFraming.frame(message);

        assertThat(framed).hasSize(5 + 0x010203);
        assertThat(Arrays.copyOf(framed, 6)).containsExactly(0, 0, 1, 2, 3, 7);
    }

    @Test
    void an_empty_message_is_its_prefix_alone() {
        assertThat(GrpcFraming.frame(new byte[0])).containsExactly(0, 0, 0, 0, 0);
    }

    @Test
    void unframe_gives_back_the_message() {
        byte[] message = {8, 42};

        assertThat(GrpcFraming.unframe(GrpcFraming.frame(message))).containsExactly(8, 42);
    }

    @Test
    void a_body_shorter_than_its_prefix_is_refused() {
        assertThatThrownBy(() -> GrpcFraming.unframe(new byte[] {0, 0, 0}))
                .isInstanceOf(GrpcException.class).hasMessageContaining("3 bytes, less than a message's 5-byte prefix");
    }

    @Test
    void a_compressed_message_is_refused() {
        assertThatThrownBy(() -> GrpcFraming.unframe(new byte[] {1, 0, 0, 0, 1, 9}))
                .isInstanceOf(GrpcException.class).hasMessageContaining("compressed (flag 1)");
    }

    @Test
    void a_length_that_is_not_the_rest_of_the_body_is_refused() {
        assertThatThrownBy(() -> GrpcFraming.unframe(new byte[] {0, 0, 0, 0, 2, 9}))
                .isInstanceOf(GrpcException.class).hasMessageContaining("says 2 bytes and 1 follow");
        byte[] two = {0, 0, 0, 0, 1, 9, 0, 0, 0, 0, 1, 9};
        assertThatThrownBy(() -> GrpcFraming.unframe(two)).hasMessageContaining("says 1 bytes and 7 follow");
    }

    @Test
    void a_length_with_its_top_bit_set_is_not_negative() {
        assertThatThrownBy(() -> GrpcFraming.unframe(new byte[] {0, (byte) 0x80, 0, 0, 0, 9}))
                .hasMessageContaining("says 2147483648 bytes");
    }

    @Test
    void a_streamed_body_gives_each_message_in_order() {
        byte[] body = {0, 0, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 9};

        assertThat(GrpcFraming.unframeAll(body)).containsExactly(new byte[] {7}, new byte[0], new byte[] {8, 9});
        assertThat(GrpcFraming.unframeAll(new byte[0])).isEmpty();
    }

    @Test
    void a_streamed_body_cut_short_is_refused() {
        assertThatThrownBy(() -> GrpcFraming.unframeAll(new byte[] {0, 0, 0, 0, 1, 7, 0, 0}))
                .hasMessage("the answer ends inside a message's 5-byte prefix");
        assertThatThrownBy(() -> GrpcFraming.unframeAll(new byte[] {0, 0, 0, 0, 3, 7}))
                .hasMessage("the answer's message says 3 bytes and 1 follow");
    }
}
