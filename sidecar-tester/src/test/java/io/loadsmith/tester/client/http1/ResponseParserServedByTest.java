package io.loadsmith.tester.client.http1;

import io.loadsmith.tester.transport.ServedBy;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code Loadsmith-Replica} header, read whole and split at every byte. */
class ResponseParserServedByTest {

    /** The parser's served by after {@code response}, fed in two parts cut at {@code cut}. */
    private static int servedBy(String response, int cut) {
        byte[] bytes = response.getBytes(StandardCharsets.ISO_8859_1);
        ResponseParser parser = new ResponseParser(ResponseParser.Limits.defaults());
        parser.begin(false, false);
        ByteBuf buffer = Unpooled.buffer();
        try {
            buffer.writeBytes(bytes, 0, cut);
            ResponseParser.Result result = parser.parse(buffer);
            buffer.writeBytes(bytes, cut, bytes.length - cut);
            if (result == ResponseParser.Result.NEED_MORE) {
                result = parser.parse(buffer);
            }
            assertThat(result).isEqualTo(ResponseParser.Result.COMPLETE);
            return parser.servedBy();
        } finally {
            buffer.release();
        }
    }

    @Test
    void the_replica_a_response_names_is_its_served_by_wherever_the_bytes_are_cut() {
        String response = "HTTP/1.1 200 OK\r\nloadsmith-REPLICA: scored-1;recv=12;sent=34\r\nContent-Length: 2\r\n\r\nok";
        int expected = ServedBy.number("scored-1");

        for (int cut = 0; cut <= response.length(); cut++) {
            assertThat(servedBy(response, cut)).as("cut at %d", cut).isEqualTo(expected);
        }
        assertThat(ServedBy.id(expected)).isEqualTo("scored-1");
    }

    @Test
    void a_response_without_the_header_names_no_replica_even_after_one_that_did() {
        ResponseParser parser = new ResponseParser(ResponseParser.Limits.defaults());
        ByteBuf buffer = Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nLoadsmith-Replica: a\r\nContent-Length: 0\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nLoadsmith-Replicas: b\r\nContent-Length: 0\r\n\r\n", StandardCharsets.ISO_8859_1);
        try {
            parser.begin(false, false);
            assertThat(parser.parse(buffer)).isEqualTo(ResponseParser.Result.COMPLETE);
            assertThat(parser.servedBy()).isEqualTo(ServedBy.number("a"));
            parser.begin(false, false);
            assertThat(parser.parse(buffer)).isEqualTo(ResponseParser.Result.COMPLETE);
            assertThat(parser.servedBy()).isEqualTo(ServedBy.NONE);
        } finally {
            buffer.release();
        }
    }
}
