package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What the fuzz campaign attacks: an admin server with a token and, beside it, a small app on the JDK server
 * whose every request passes the same stall gate (so a stall armed by the fuzz would hold it) and answers
 * {@code ok}. Both on 127.0.0.1, port 0.
 */
final class FuzzTarget implements AutoCloseable {

    static final String TOKEN = "fuzz-token-0123456789";

    final StallController controller;
    final AdminServer admin;
    private final HttpServer app;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    FuzzTarget() throws IOException {
        StallGate gate = new StallGate();
        controller = new StallController(Clock.system(), gate);
        admin = AdminServer.start(AdminConfig.builder().port(0).token(TOKEN).build(), controller);
        app = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        app.createContext("/score", exchange -> {
            gate.pass();
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        app.start();
    }

    /** The app's own check: null when {@code GET /score} answers 200 {@code ok} within 5 s, else what it answered. */
    String appAnswers() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getAddress().getPort() + "/score"))
                .timeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        return response.statusCode() == 200 && response.body().equals("ok") ? null
                : "the app answered " + response.statusCode() + ": " + response.body();
    }

    @Override
    public void close() {
        app.stop(0);
        admin.close();
        controller.close();
    }
}
