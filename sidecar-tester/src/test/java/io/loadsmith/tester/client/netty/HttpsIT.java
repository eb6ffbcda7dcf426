package io.loadsmith.tester.client.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RecordedExchange;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.TestCertificates;
import io.loadsmith.tester.transport.TransportOptions.Kind;
import io.loadsmith.tester.transport.TransportOptions.Tls;
import io.loadsmith.tester.transport.TransportOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** https:// targets on both transports against a Jetty https connector with a certificate made at test time. */
class HttpsIT {

    private static Path dir;
    private static TestCertificates.Made certificate;
    private static Server server;
    private static URI ok;

    @BeforeAll
    static void startServer() throws Exception {
        dir = Files.createTempDirectory("loadsmith-https");
        certificate = TestCertificates.make(dir);
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(certificate.keyStore().toString());
        tls.setKeyStoreType("PKCS12");
        tls.setKeyStorePassword(TestCertificates.PASSWORD);
        server = new Server();
        ServerConnector https = new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"),
                new HttpConnectionFactory());
        https.setHost("127.0.0.1");
        https.setPort(0);
        server.addConnector(https);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.write(true, ByteBuffer.wrap("hello".getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
        ok = URI.create("https://127.0.0.1:" + https.getLocalPort() + "/ok");
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.stop();
        for (Path file : new Path[] {certificate.keyStore(), certificate.pem(), dir}) {
            Files.deleteIfExists(file);
        }
    }

    private static RecordedExchange get(Kind kind, Tls tls) throws Exception {
        try (OpenTransport http = Transports.open(TransportOptions.connections(1).withKind(kind).withTls(tls))) {
            RecordedExchange r = new RecordedExchange();
            http.transport().send(RequestSpec.get(ok, 0, 0), r);
            return r.await();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_ca_file_with_the_servers_certificate_trusts_it(Kind kind) throws Exception {
        RecordedExchange r = get(kind, new Tls(false, certificate.pem()));
        assertThat(r.outcome).as(r.detail).isEqualTo(Outcome.OK);
        assertThat(r.status).isEqualTo(200);
        assertThat(r.sentCalls.get()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void insecure_trusts_a_self_signed_certificate(Kind kind) throws Exception {
        RecordedExchange r = get(kind, new Tls(true, null));
        assertThat(r.outcome).as(r.detail).isEqualTo(Outcome.OK);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void the_default_trust_refuses_a_self_signed_certificate_without_sending(Kind kind) throws Exception {
        RecordedExchange r = get(kind, Tls.DEFAULT);
        assertThat(r.outcome).isEqualTo(Outcome.OTHER);
        assertThat(r.sentCalls.get()).isZero();
        assertThat(r.detail).containsIgnoringCase("certificat");
    }
}
