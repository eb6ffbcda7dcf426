package io.loadsmith.tester.client.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.cli.ExitCodes;
import io.loadsmith.tester.cli.Main;
import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RecordedExchange;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.TestCertificates;
import io.loadsmith.tester.transport.TransportOptions.Http;
import io.loadsmith.tester.transport.TransportOptions.Kind;
import io.loadsmith.tester.transport.TransportOptions.Tls;
import io.loadsmith.tester.transport.TransportOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * HTTP/2 on the Jetty transport ({@code target.http: 2}) against a Jetty 12 server on 127.0.0.1 with two
 * HTTP/2-only connectors, h2c (prior knowledge) and h2 over TLS negotiated by ALPN, and a TLS connector that
 * speaks only HTTP/1.1, with a certificate made at test time. Paths: {@code /ok} 200 "hello"; {@code /status?code=N}; {@code /reset} sends its headers and
 * part of a body, then fails, which Jetty answers with a RST_STREAM; {@code /close} closes the connection.
 */
class Http2IT {

    private static Path dir;
    private static TestCertificates.Made certificate;
    private static Server server;
    private static URI h2c;
    private static URI h2;
    private static URI http11OverTls;
    /** Requests the server handled, by "HTTP version, plain or tls". */
    private static final Map<String, LongAdder> seen = new ConcurrentHashMap<>();

    @BeforeAll
    static void startServer() throws Exception {
        dir = Files.createTempDirectory("loadsmith-h2");
        certificate = TestCertificates.make(dir);
        server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ServerConnector plain = new ServerConnector(server, new HTTP2CServerConnectionFactory(config));
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(certificate.keyStore().toString());
        tls.setKeyStoreType("PKCS12");
        tls.setKeyStorePassword(TestCertificates.PASSWORD);
        tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2");
        ServerConnector secure = new ServerConnector(server, new SslConnectionFactory(tls, alpn.getProtocol()), alpn,
                new HTTP2ServerConnectionFactory(config));
        ServerConnector secureHttp11 = new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"),
                new HttpConnectionFactory(config));
        for (ServerConnector connector : List.of(plain, secure, secureHttp11)) {
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.addConnector(connector);
        }
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                seen.computeIfAbsent(request.getConnectionMetaData().getHttpVersion().asString()
                        + (request.isSecure() ? " tls" : " plain"), k -> new LongAdder()).increment();
                Fields query = Request.extractQueryParameters(request);
                switch (Request.getPathInContext(request)) {
                    case "/status" -> write(response, Integer.parseInt(query.getValue("code")), callback);
                    case "/reset" -> {
                        response.setStatus(200);
                        response.write(false, ByteBuffer.wrap("part".getBytes(StandardCharsets.UTF_8)),
                                Callback.from(() -> callback.failed(new IOException("the test server gives up")),
                                        callback::failed));
                    }
                    case "/close" -> {
                        request.getConnectionMetaData().getConnection().getEndPoint().close();
                        callback.succeeded();
                    }
                    default -> write(response, 200, callback);
                }
                return true;
            }
        });
        server.start();
        h2c = URI.create("http://127.0.0.1:" + plain.getLocalPort());
        h2 = URI.create("https://127.0.0.1:" + secure.getLocalPort());
        http11OverTls = URI.create("https://127.0.0.1:" + secureHttp11.getLocalPort());
    }

    private static void write(Response response, int status, Callback callback) {
        response.setStatus(status);
        response.write(true, ByteBuffer.wrap("hello".getBytes(StandardCharsets.UTF_8)), callback);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.stop();
        for (Path file : new Path[] {certificate.keyStore(), certificate.pem(), dir}) {
            Files.deleteIfExists(file);
        }
    }

    @BeforeEach
    void forgetRequests() {
        seen.clear();
    }

    private static long seen(String versionAndWire) {
        LongAdder count = seen.get(versionAndWire);
        return count == null ? 0 : count.sum();
    }

    private static TransportOptions http2(int connections, Tls tls) {
        return TransportOptions.connections(connections).withKind(Kind.JETTY).withHttp(Http.HTTP_2).withTls(tls);
    }

    /** Sends every spec at once and waits for all of them. */
    private static List<RecordedExchange> sendAll(TransportOptions options, List<RequestSpec> specs) throws Exception {
        List<RecordedExchange> all = new ArrayList<>();
        try (OpenTransport http = Transports.open(options)) {
            for (RequestSpec spec : specs) {
                RecordedExchange r = new RecordedExchange();
                all.add(r);
                http.transport().send(spec, r);
            }
            for (RecordedExchange r : all) {
                r.await();
            }
        }
        return all;
    }

    private static List<RequestSpec> gets(URI uri, int count) {
        List<RequestSpec> specs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            specs.add(RequestSpec.get(uri, 0, 0));
        }
        return specs;
    }

    @Test
    void h2c_requests_reach_the_server_as_http_2_and_statuses_are_classified_as_on_http_1_1() throws Exception {
        List<RequestSpec> specs = gets(h2c.resolve("/ok"), 20);
        specs.add(RequestSpec.get(h2c.resolve("/status?code=503"), 0, 0));
        specs.add(RequestSpec.get(h2c.resolve("/status?code=302"), 0, 0));
        List<RecordedExchange> all = sendAll(http2(2, Tls.DEFAULT), specs);

        for (RecordedExchange r : all.subList(0, 20)) {
            assertThat(r.outcome).as(r.detail).isEqualTo(Outcome.OK);
            assertThat(r.status).isEqualTo(200);
            assertThat(r.sentCalls.get()).isEqualTo(1);
            assertThat(r.sentNanos).isLessThanOrEqualTo(r.endNanos);
        }
        assertThat(all.get(20).outcome).isEqualTo(Outcome.HTTP_STATUS);
        assertThat(all.get(20).status).isEqualTo(503);
        assertThat(all.get(21).outcome).isEqualTo(Outcome.OK);
        assertThat(all.get(21).status).isEqualTo(302);
        assertThat(seen("HTTP/2.0 plain")).isEqualTo(22);
        assertThat(seen).containsOnlyKeys("HTTP/2.0 plain");
    }

    @Test
    void h2_over_tls_is_negotiated_by_alpn_and_trusts_a_ca_file() throws Exception {
        List<RecordedExchange> all = sendAll(http2(1, new Tls(false, certificate.pem())), gets(h2.resolve("/ok"), 5));
        for (RecordedExchange r : all) {
            assertThat(r.outcome).as(r.detail).isEqualTo(Outcome.OK);
            assertThat(r.status).isEqualTo(200);
        }
        assertThat(seen("HTTP/2.0 tls")).isEqualTo(5);
        assertThat(seen).containsOnlyKeys("HTTP/2.0 tls");
    }

    @Test
    void h2_over_tls_with_insecure_trusts_a_self_signed_certificate() throws Exception {
        RecordedExchange r = sendAll(http2(1, new Tls(true, null)), gets(h2.resolve("/ok"), 1)).get(0);
        assertThat(r.outcome).as(r.detail).isEqualTo(Outcome.OK);
        assertThat(seen("HTTP/2.0 tls")).isEqualTo(1);
    }

    @Test
    void h2_with_the_default_trust_refuses_a_self_signed_certificate_without_sending() throws Exception {
        RecordedExchange r = sendAll(http2(1, Tls.DEFAULT), gets(h2.resolve("/ok"), 1)).get(0);
        assertThat(r.outcome).isEqualTo(Outcome.OTHER);
        assertThat(r.sentCalls.get()).isZero();
        assertThat(r.detail).containsIgnoringCase("certificat");
        assertThat(seen).isEmpty();
    }

    @Test
    void h2_to_a_tls_server_that_does_not_offer_h2_fails_each_request_as_other_without_sending() throws Exception {
        RecordedExchange r = sendAll(http2(1, new Tls(true, null)), gets(http11OverTls.resolve("/ok"), 1)).get(0);
        assertThat(r.outcome).isEqualTo(Outcome.OTHER);
        assertThat(r.detail).startsWith("java.io.IOException: frame_size_error");
        assertThat(r.sentCalls.get()).isZero();
        assertThat(seen).isEmpty();
    }

    @Test
    void a_stream_reset_by_the_server_is_reset_and_the_connection_serves_the_next_request() throws Exception {
        try (OpenTransport http = Transports.open(http2(1, Tls.DEFAULT))) {
            RecordedExchange reset = new RecordedExchange();
            http.transport().send(RequestSpec.get(h2c.resolve("/reset"), 0, 0), reset);
            reset.await();
            assertThat(reset.outcome).as(reset.detail).isEqualTo(Outcome.RESET);
            assertThat(reset.detail).isEqualTo("java.io.IOException: cancel_stream_error");
            assertThat(reset.status).isEqualTo(200);
            assertThat(reset.sentCalls.get()).isEqualTo(1);
            RecordedExchange next = new RecordedExchange();
            http.transport().send(RequestSpec.get(h2c.resolve("/ok"), 0, 0), next);
            assertThat(next.await().outcome).as(next.detail).isEqualTo(Outcome.OK);
        }
        assertThat(seen("HTTP/2.0 plain")).isEqualTo(2);
    }

    @Test
    void a_connection_closed_by_the_server_ends_its_requests_with_reset() throws Exception {
        RecordedExchange r = sendAll(http2(1, Tls.DEFAULT), gets(h2c.resolve("/close"), 1)).get(0);
        assertThat(r.outcome).as(r.detail).isEqualTo(Outcome.RESET);
        assertThat(r.detail).isEqualTo("java.nio.channels.ClosedChannelException");
    }

    @Test
    void h2c_to_a_server_that_speaks_only_http_1_1_fails_each_request_as_other_without_sending() throws Exception {
        try (TestServer http1 = TestServer.start()) {
            RecordedExchange r = sendAll(http2(1, Tls.DEFAULT), gets(http1.uri("/ok"), 1)).get(0);
            assertThat(r.outcome).isEqualTo(Outcome.OTHER);
            assertThat(r.detail).startsWith("java.io.IOException: frame_size_error");
            assertThat(r.sentCalls.get()).isZero();
        }
    }

    @Test
    void http_2_on_the_netty_transport_is_refused_before_anything_opens() {
        assertThatThrownBy(() -> TransportOptions.connections(1).withHttp(Http.HTTP_2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("HTTP/2 needs the jetty transport (got netty)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2c", "h2"})
    void loadsmith_run_with_target_http_2_completes_with_the_count_identities(String wire, @TempDir Path tmp)
            throws Exception {
        Path scenario = tmp.resolve(wire + ".yaml");
        Files.copy(certificate.pem(), tmp.resolve("ca.pem"));
        Files.writeString(scenario, wire.equals("h2c")
                ? "target:\n  url: " + h2c.resolve("/ok") + "\n  http: 2\n"
                : "target:\n  url: " + h2.resolve("/ok") + "\n  http: 2\n  tls: {ca_file: ca.pem}\n");
        Files.writeString(scenario, "load: {model: open, rate: 100, duration: 1s, grace: 10s}\n",
                StandardOpenOption.APPEND);
        Path out = tmp.resolve("out");
        StringWriter console = new StringWriter();
        StringWriter errors = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(console, true));
        cmd.setErr(new PrintWriter(errors, true));

        int exit = cmd.execute("run", scenario.toString(), "--out", out.toString(), "--progress", "none");

        assertThat(errors.toString()).isEmpty();
        assertThat(exit).as(console.toString()).isEqualTo(ExitCodes.OK);
        JsonNode run = new ObjectMapper().readTree(out.resolve("results.json").toFile()).at("/runs/0");
        assertThat(run.at("/transport/kind").asText()).isEqualTo("jetty");
        assertThat(run.at("/transport/http").asText()).isEqualTo("2");
        JsonNode counts = run.get("counts");
        long scheduled = counts.get("scheduled").asLong();
        long sent = counts.get("sent").asLong();
        assertThat(scheduled).isPositive();
        assertThat(scheduled).isEqualTo(sent + counts.get("dropped").asLong() + counts.get("skipped").asLong());
        assertThat(sent).isEqualTo(counts.get("completed").asLong() + counts.get("errors").asLong());
        assertThat(counts.get("errors").asLong()).isZero();
        assertThat(counts.get("dropped").asLong()).isZero();
        String key = "HTTP/2.0 " + (wire.equals("h2c") ? "plain" : "tls");
        assertThat(seen(key)).isEqualTo(sent);
        assertThat(seen).containsOnlyKeys(key);
    }
}
