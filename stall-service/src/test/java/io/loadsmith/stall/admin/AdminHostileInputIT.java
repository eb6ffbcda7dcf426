package io.loadsmith.stall.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The admin API against clients that misbehave at the HTTP level, on raw loopback sockets. */
@Timeout(60)
class AdminHostileInputIT {

    private static final int DEADLINE_MILLIS = 20_000;

    private final StallController controller = new StallController(Clock.system(), new StallGate());
    private final AdminServer server = AdminServer.start(AdminConfig.builder().port(0).build(), controller);

    @AfterEach
    void stop() {
        server.close();
        controller.close();
    }

    @Test
    void a_client_that_sends_a_40_mb_body_before_reading_reads_the_413_and_its_json_error() throws Exception {
        byte[] body = new byte[40 << 20];
        Arrays.fill(body, (byte) ' ');
        byte[] request = concat(("POST /arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII), body);

        RawHttp.Outcome outcome = RawHttp.exchange(server.address(), request, DEADLINE_MILLIS, 64 << 10);

        assertThat(outcome.reset()).as("the server reset the connection while the client sent").isFalse();
        assertThat(outcome.status()).isEqualTo(413);
        assertThat(outcome.body()).isEqualTo("{\"error\":\"body: 41943040 bytes is over the limit of 65536 bytes\"}\n");
        assertThat(controller.armed()).isFalse();
    }

    @Test
    void a_client_that_sends_5_mb_of_white_space_in_chunks_before_reading_reads_the_413() throws Exception {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(("POST /arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        byte[] chunk = new byte[64 << 10];
        Arrays.fill(chunk, (byte) ' ');
        for (int i = 0; i < 80; i++) {
            request.writeBytes((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            request.writeBytes(chunk);
            request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        request.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

        RawHttp.Outcome outcome = RawHttp.exchange(server.address(), request.toByteArray(), DEADLINE_MILLIS, 64 << 10);

        assertThat(outcome.reset()).as("the server reset the connection while the client sent").isFalse();
        assertThat(outcome.status()).isEqualTo(413);
        assertThat(outcome.body()).isEqualTo("{\"error\":\"body: over the limit of 65536 bytes\"}\n");
    }

    @Test
    void a_client_that_sends_half_its_body_and_waits_reads_a_408_and_the_connection_is_closed() throws Exception {
        byte[] request = ("POST /arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                + "{\"seed\": 7, ").getBytes(StandardCharsets.US_ASCII);

        RawHttp.Outcome outcome = RawHttp.sendAndWait(server.address(), request, DEADLINE_MILLIS, 64 << 10);

        assertThat(outcome.timedOut()).as("closed before the client's deadline").isFalse();
        assertThat(outcome.status()).isEqualTo(408);
        assertThat(outcome.text()).containsIgnoringCase("Connection: close\r\n");
        assertThat(outcome.body()).isEqualTo("{\"error\":\"body: not received in time (a request may take 5 s, or 20 ms "
                + "while other connections wait); the connection is closed\"}\n");
        assertThat(controller.armed()).isFalse();
    }

    @Test
    void a_client_that_stops_inside_its_headers_is_closed_without_an_answer() throws Exception {
        byte[] request = "POST /arm HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty".getBytes(StandardCharsets.US_ASCII);

        RawHttp.Outcome outcome = RawHttp.sendAndWait(server.address(), request, DEADLINE_MILLIS, 64 << 10);

        assertThat(outcome.timedOut()).as("closed before the client's deadline").isFalse();
        assertThat(outcome.statuses()).isEmpty();
    }

    private static byte[] concat(byte[] head, byte[] tail) {
        byte[] all = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
