package io.loadsmith.tester.client.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.tester.client.http1.RequestPlan;
import io.loadsmith.tester.client.jetty.TestServer;
import io.loadsmith.tester.transport.ConnectionStats;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RecordedExchange;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.RequestTemplate;
import io.loadsmith.tester.transport.TransportOptions;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Netty transport against a real Jetty 12 server (and raw sockets for broken servers) on loopback. */
class NettyTransportIT {

    private static TestServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = TestServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private static OpenTransport open(int connections) {
        return open(TransportOptions.connections(connections));
    }

    private static OpenTransport open(TransportOptions options) {
        return NettyTransport.open(options);
    }

    private static RecordedExchange send(OpenTransport http, RequestSpec spec) throws InterruptedException {
        RecordedExchange recorded = new RecordedExchange();
        http.transport().send(spec, recorded);
        return recorded.await();
    }

    private static long count(OpenTransport http, Outcome outcome) {
        return ((NettyTransport) http.transport()).counts().get(outcome);
    }

    @Test
    void a_good_answer_is_ok_with_send_before_end_on_the_loop_thread() throws Exception {
        try (OpenTransport http = open(2)) {
            long before = System.nanoTime();
            RecordedExchange r = send(http, RequestSpec.get(server.uri("/ok"), 0, 0));
            long after = System.nanoTime();
            assertThat(r.outcome).isEqualTo(Outcome.OK);
            assertThat(r.status).isEqualTo(200);
            assertThat(r.detail).isNull();
            assertThat(r.sentCalls.get()).isEqualTo(1);
            assertThat(r.completedCalls.get()).isEqualTo(1);
            assertThat(r.sentNanos).isBetween(before, r.endNanos);
            assertThat(r.endNanos).isLessThanOrEqualTo(after);
            assertThat(r.thread).startsWith("loadsmith-loop");
            assertThat(count(http, Outcome.OK)).isEqualTo(1);
            assertThat(http.stats().sent()).isEqualTo(1);
            assertThat(http.stats().inFlight()).isZero();
        }
    }

    @Test
    void the_nio_fallback_answers_and_times_out_like_epoll() throws Exception {
        TransportOptions options = TransportOptions.connections(1).withTimeoutNanos(300_000_000L);
        try (OpenTransport http = NettyTransport.open(options, false)) {
            for (int i = 0; i < 20; i++) {
                assertThat(send(http, RequestSpec.get(server.uri("/ok"), 0, 0)).outcome).isEqualTo(Outcome.OK);
            }
            assertThat(send(http, RequestSpec.get(server.uri("/sleep?ms=1500"), 0, 0)).outcome).isEqualTo(Outcome.TIMEOUT);
            assertThat(http.stats().connections().opened()).isEqualTo(1);
            assertThat(http.stats().sent()).isEqualTo(21);
        }
    }

    @Test
    void a_status_of_400_or_more_is_http_status_without_a_check() throws Exception {
        try (OpenTransport http = open(1)) {
            RecordedExchange r = send(http, RequestSpec.get(server.uri("/status?code=503"), 0, 0));
            assertThat(r.outcome).isEqualTo(Outcome.HTTP_STATUS);
            assertThat(r.status).isEqualTo(503);
            assertThat(r.sentNanos).isPositive();
        }
    }

    @Test
    void a_check_sees_the_body_and_decides() throws Exception {
        try (OpenTransport http = open(1)) {
            RequestSpec good = new RequestSpec("GET", server.uri("/json"), Map.of(), null,
                    (status, body) -> new String(body, StandardCharsets.UTF_8).contains("42") ? null : "no 42", 0, 0);
            RequestSpec bad = new RequestSpec("GET", server.uri("/json"), Map.of(), null,
                    (status, body) -> new String(body, StandardCharsets.UTF_8).contains("43") ? null : "no 43", 0, 0);
            RequestSpec badStatus = new RequestSpec("GET", server.uri("/status?code=404"), Map.of(), null,
                    (status, body) -> status == 200 ? null : "status " + status, 0, 0);
            assertThat(send(http, good).outcome).isEqualTo(Outcome.OK);
            RecordedExchange failed = send(http, bad);
            assertThat(failed.outcome).isEqualTo(Outcome.CHECK_FAILED);
            assertThat(failed.detail).isEqualTo("no 43");
            assertThat(send(http, badStatus).outcome).isEqualTo(Outcome.HTTP_STATUS);
            assertThat(count(http, Outcome.CHECK_FAILED)).isEqualTo(1);
            assertThat(count(http, Outcome.HTTP_STATUS)).isEqualTo(1);
        }
    }

    @Test
    void headers_and_body_are_sent() throws Exception {
        try (OpenTransport http = open(1)) {
            RequestSpec post = new RequestSpec("POST", server.uri("/echo"), Map.of("X-Test", "t1"),
                    "{\"a\":1}".getBytes(StandardCharsets.UTF_8),
                    (status, body) -> {
                        String text = new String(body, StandardCharsets.UTF_8);
                        return text.equals("t1:{\"a\":1}") ? null : "got " + text;
                    }, 0, 0);
            RecordedExchange r = send(http, post);
            assertThat(r.detail).isNull();
            assertThat(r.outcome).isEqualTo(Outcome.OK);
        }
    }

    @Test
    void a_templated_request_is_written_from_its_row_and_reaches_the_server_whole() throws Exception {
        String[][] rows = {{"7", "alice", "caf\u00e9 \u20ac"}, {"8", "bob", ""}};
        RequestPlan plan = RequestPlan.builder("POST")
                .target(List.of(server.uri("/echo?id=").toString(), ""), new int[] {0})
                .header("X-Test", List.of("", ""), new int[] {1})
                .body(List.of("{\"id\":\"", "\",\"text\":\"", "\"}"), new int[] {0, 2})
                .build();
        RequestTemplate template = new RequestTemplate() {
            @Override
            public RequestSpec render(RequestSpec spec) {
                throw new AssertionError("the default transport writes a templated request itself");
            }

            @Override
            public void encode(RequestSpec spec, ByteBuf out) {
                plan.encode(rows[spec.row()], out);
            }
        };
        try (OpenTransport http = open(1)) {
            for (int row = 0; row < rows.length; row++) {
                String expected = rows[row][1] + ":{\"id\":\"" + rows[row][0] + "\",\"text\":\"" + rows[row][2] + "\"}";
                RecordedExchange r = send(http, RequestSpec.templated("POST", plan.endpoint(), template, row,
                        (status, body) -> {
                            String text = new String(body, StandardCharsets.UTF_8);
                            return text.equals(expected) ? null : "got " + text;
                        }, 0, 0));
                assertThat(r.detail).isNull();
                assertThat(r.outcome).isEqualTo(Outcome.OK);
            }
        }
    }

    @Test
    void many_requests_on_one_connection_open_it_once() throws Exception {
        try (OpenTransport http = open(1)) {
            for (int i = 0; i < 200; i++) {
                assertThat(send(http, RequestSpec.get(server.uri("/ok"), 0, 0)).outcome).isEqualTo(Outcome.OK);
            }
            ConnectionStats c = http.stats().connections();
            assertThat(c.opened()).isEqualTo(1);
            assertThat(c.reconnects()).isZero();
            assertThat(c.failedConnects()).isZero();
            assertThat(c.connectMaxMs()).isGreaterThanOrEqualTo(c.connectP50Ms());
        }
    }

    @Test
    void connection_close_from_the_server_closes_and_the_next_request_reconnects() throws Exception {
        try (OpenTransport http = open(1)) {
            RecordedExchange bye = send(http, RequestSpec.get(server.uri("/bye"), 0, 0));
            assertThat(bye.outcome).isEqualTo(Outcome.OK);
            assertThat(send(http, RequestSpec.get(server.uri("/ok"), 0, 0)).outcome).isEqualTo(Outcome.OK);
            assertThat(send(http, RequestSpec.get(server.uri("/ok"), 0, 0)).outcome).isEqualTo(Outcome.OK);
            ConnectionStats c = http.stats().connections();
            assertThat(c.opened()).isEqualTo(2);
            assertThat(c.reconnects()).isEqualTo(1);
        }
    }

    @Test
    void closed_model_requests_each_get_their_own_connection() throws Exception {
        try (OpenTransport http = open(1)) {
            for (int round = 0; round < 3; round++) {
                for (int k = 0; k < 4; k++) {
                    assertThat(send(http, RequestSpec.get(server.uri("/ok"), k, 0)).outcome).isEqualTo(Outcome.OK);
                }
            }
            assertThat(http.stats().connections().opened()).isEqualTo(4);
        }
    }

    @Test
    void a_refused_connection_is_counted_as_refused_and_never_sent() throws Exception {
        int port = freePort();
        try (OpenTransport http = open(1)) {
            RecordedExchange r = send(http, RequestSpec.get(URI.create("http://127.0.0.1:" + port + "/"), 0, 0));
            assertThat(r.outcome).isEqualTo(Outcome.REFUSED);
            assertThat(r.status).isZero();
            assertThat(r.sentCalls.get()).isZero();
            assertThat(count(http, Outcome.REFUSED)).isEqualTo(1);
            assertThat(http.stats().connections().failedConnects()).isEqualTo(1);
        }
    }

    @Test
    void a_connection_closed_by_the_server_is_counted_as_reset_and_the_next_request_is_fine() throws Exception {
        try (OpenTransport http = open(1)) {
            RecordedExchange r = send(http, RequestSpec.get(server.uri("/close"), -1, 0));
            assertThat(r.outcome).isEqualTo(Outcome.RESET);
            assertThat(r.sentCalls.get()).isEqualTo(1);
            assertThat(send(http, RequestSpec.get(server.uri("/ok"), -1, 0)).outcome).isEqualTo(Outcome.OK);
        }
    }

    @Test
    void a_tcp_reset_after_the_request_is_counted_as_reset() throws Exception {
        RecordedExchange r = againstRawServer(socket -> {
            try {
                socket.getInputStream().read(new byte[4096]);
                socket.setSoLinger(true, 0); // close with RST
            } catch (Exception ignored) {
                // the test's assertions tell
            }
        });
        assertThat(r.outcome).isEqualTo(Outcome.RESET);
        assertThat(r.sentCalls.get()).isEqualTo(1);
    }

    @Test
    void a_close_in_the_middle_of_the_body_is_reset_with_the_status_seen() throws Exception {
        RecordedExchange r = againstRawServer(socket -> answer(socket,
                "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b"));
        assertThat(r.outcome).isEqualTo(Outcome.RESET);
        assertThat(r.status).isEqualTo(200);
    }

    @Test
    void a_body_delimited_by_the_close_is_ok() throws Exception {
        RecordedExchange r = againstRawServer(socket -> answer(socket, "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nall of it"));
        assertThat(r.outcome).isEqualTo(Outcome.OK);
        assertThat(r.status).isEqualTo(200);
    }

    @Test
    void a_malformed_response_is_bad_response() throws Exception {
        RecordedExchange r = againstRawServer(socket -> answer(socket, "HTTX/1.1 200 OK\r\n\r\n"));
        assertThat(r.outcome).isEqualTo(Outcome.BAD_RESPONSE);
        assertThat(r.detail).contains("BAD_STATUS_LINE");
    }

    @Test
    void a_slow_server_times_out_as_timeout() throws Exception {
        TransportOptions options = TransportOptions.connections(1).withTimeoutNanos(200_000_000L);
        try (OpenTransport http = open(options)) {
            RecordedExchange r = send(http, RequestSpec.get(server.uri("/sleep?ms=1500"), 0, 0));
            assertThat(r.outcome).isEqualTo(Outcome.TIMEOUT);
            assertThat(r.sentCalls.get()).isEqualTo(1);
            assertThat(r.endNanos - r.sentNanos).as("ended before the server answered").isLessThan(1_500_000_000L);
            assertThat(count(http, Outcome.TIMEOUT)).isEqualTo(1);
            // the timed-out connection was closed; the next request opens another
            assertThat(send(http, RequestSpec.get(server.uri("/ok"), 0, 0)).outcome).isEqualTo(Outcome.OK);
            assertThat(http.stats().connections().reconnects()).isEqualTo(1);
        }
    }

    @Test
    void cancel_all_completes_every_exchange_in_flight_and_waiting_as_cancelled() throws Exception {
        try (OpenTransport http = open(2)) {
            List<RecordedExchange> flights = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                RecordedExchange r = new RecordedExchange();
                http.transport().send(RequestSpec.get(server.uri("/sleep?ms=3000"), -1, 0), r);
                flights.add(r);
            }
            awaitSent(http, 2);
            assertThat(http.stats().sent()).isEqualTo(2); // two on the pool's connections, three waiting
            assertThat(http.stats().inFlight()).isEqualTo(5);
            http.transport().cancelAll();
            for (RecordedExchange r : flights) {
                r.await();
                assertThat(r.outcome).isEqualTo(Outcome.CANCELLED);
                assertThat(r.completedCalls.get()).isEqualTo(1);
            }
            assertThat(count(http, Outcome.CANCELLED)).isEqualTo(5);
            assertThat(http.stats().inFlight()).isZero();
        }
    }

    @Test
    void requests_beyond_the_pool_wait_in_order_and_are_timed_from_their_write() throws Exception {
        try (OpenTransport http = open(1)) {
            RecordedExchange first = new RecordedExchange();
            RecordedExchange second = new RecordedExchange();
            http.transport().send(RequestSpec.get(server.uri("/sleep?ms=300"), -1, 0), first);
            http.transport().send(RequestSpec.get(server.uri("/ok"), -1, 0), second);
            first.await();
            second.await();
            assertThat(second.outcome).isEqualTo(Outcome.OK);
            assertThat(second.sentNanos).isGreaterThanOrEqualTo(first.endNanos);
            assertThat(http.stats().connections().opened()).isEqualTo(1);
        }
    }

    @Test
    void requests_waiting_for_the_pool_are_sent_first_come_first_served() throws Exception {
        try (OpenTransport http = open(1)) {
            RecordedExchange slow = new RecordedExchange();
            http.transport().send(RequestSpec.get(server.uri("/sleep?ms=200"), -1, 0), slow);
            List<RecordedExchange> waiting = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                RecordedExchange r = new RecordedExchange();
                http.transport().send(RequestSpec.get(server.uri("/ok"), -1, 0), r);
                waiting.add(r);
            }
            slow.await();
            long previousSent = slow.sentNanos;
            for (RecordedExchange r : waiting) {
                assertThat(r.await().outcome).isEqualTo(Outcome.OK);
                assertThat(r.sentNanos).isGreaterThan(previousSent);
                previousSent = r.sentNanos;
            }
        }
    }

    @Test
    void a_head_request_has_no_body_and_the_connection_carries_on() throws Exception {
        try (OpenTransport http = open(1)) {
            RequestSpec head = new RequestSpec("HEAD", server.uri("/ok"), Map.of(), null, null, 0, 0);
            assertThat(send(http, head).outcome).isEqualTo(Outcome.OK);
            assertThat(send(http, RequestSpec.get(server.uri("/json"), 0, 0)).outcome).isEqualTo(Outcome.OK);
            assertThat(send(http, head).outcome).isEqualTo(Outcome.OK);
            assertThat(http.stats().connections().opened()).isEqualTo(1);
        }
    }

    @Test
    void a_server_stopped_mid_run_gives_errors_not_a_hang() throws Exception {
        TestServer doomed = TestServer.start();
        URI ok = doomed.uri("/ok");
        // a connection the stopping server neither answers nor closes is ended by the transport's timeout
        try (OpenTransport http = open(TransportOptions.connections(4).withTimeoutNanos(5_000_000_000L))) {
            assertThat(send(http, RequestSpec.get(doomed.uri("/ok"), -1, 0)).outcome).isEqualTo(Outcome.OK);
            List<RecordedExchange> slow = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                RecordedExchange r = new RecordedExchange();
                http.transport().send(RequestSpec.get(doomed.uri("/sleep?ms=2000"), -1, 0), r);
                slow.add(r);
            }
            awaitSent(http, 5);
            doomed.close();
            for (RecordedExchange r : slow) {
                r.await();
                assertThat(r.outcome).as(r.detail).isIn(Outcome.RESET, Outcome.OK, Outcome.HTTP_STATUS, Outcome.TIMEOUT);
            }
            RecordedExchange after = send(http, RequestSpec.get(ok, -1, 0));
            assertThat(after.outcome).as(after.detail).isEqualTo(Outcome.REFUSED);
            assertThat(http.stats().inFlight()).isZero();
        }
    }

    @Test
    void a_bad_uri_completes_as_other_without_throwing() throws Exception {
        try (OpenTransport http = open(1)) {
            RecordedExchange r = send(http, RequestSpec.get(URI.create("ftp://127.0.0.1/x"), 0, 0));
            assertThat(r.outcome).isEqualTo(Outcome.OTHER);
            assertThat(r.sentCalls.get()).isZero();
        }
    }

    @Test
    void a_send_after_close_is_cancelled() throws Exception {
        OpenTransport http = open(1);
        NettyTransport transport = (NettyTransport) http.transport();
        transport.close();
        RecordedExchange r = new RecordedExchange();
        AtomicBoolean threw = new AtomicBoolean();
        try {
            transport.send(RequestSpec.get(server.uri("/ok"), 0, 0), r);
            r.await();
            assertThat(r.outcome).isEqualTo(Outcome.CANCELLED);
        } catch (RuntimeException e) {
            threw.set(true);
        } finally {
            http.close();
        }
        assertThat(threw).isFalse();
    }

    @Test
    void a_send_after_the_loop_closed_is_cancelled_on_the_callers_thread() throws Exception {
        OpenTransport http = open(1);
        http.close();
        RecordedExchange r = new RecordedExchange();
        http.transport().send(RequestSpec.get(server.uri("/ok"), 0, 0), r);
        assertThat(r.await().outcome).isEqualTo(Outcome.CANCELLED);
        assertThat(r.thread).isEqualTo(Thread.currentThread().getName());
        http.transport().cancelAll(); // nothing in flight, and no exception
    }

    private static void awaitSent(OpenTransport http, long sent) {
        await("requests sent").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                .until(() -> http.stats().sent(), n -> n >= sent);
        assertThat(http.stats().sent()).isEqualTo(sent);
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void answer(Socket socket, String response) {
        try {
            InputStream in = socket.getInputStream();
            in.read(new byte[4096]);
            OutputStream out = socket.getOutputStream();
            out.write(response.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (Exception ignored) {
            // the test's assertions tell
        }
    }

    /** One request to a one-shot server that does what {@code behaviour} says with the connection, then closes it. */
    private static RecordedExchange againstRawServer(Consumer<Socket> behaviour) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread peer = new Thread(() -> {
                try (Socket socket = listener.accept()) {
                    behaviour.accept(socket);
                } catch (Exception ignored) {
                    // the test's assertions tell
                }
            });
            peer.start();
            try (OpenTransport http = open(1)) {
                RecordedExchange r = send(http, RequestSpec.get(
                        URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/"), 0, 0));
                assertThat(r.completedCalls.get()).isEqualTo(1);
                assertThat(r.completedBeforeSent).isFalse();
                peer.join(5_000);
                return r;
            }
        }
    }
}
