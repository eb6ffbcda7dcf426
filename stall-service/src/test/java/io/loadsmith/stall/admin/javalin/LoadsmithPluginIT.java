package io.loadsmith.stall.admin.javalin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** A real Javalin 7 app on port 0 with the plugin, driven through its real admin API. */
@Timeout(60)
class LoadsmithPluginIT {

    private static final long MS = 1_000_000L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final CountDownLatch slowEntered = new CountDownLatch(1);
    private final CountDownLatch slowMayEnd = new CountDownLatch(1);
    private LoadsmithPlugin plugin;
    private Javalin app;

    @BeforeEach
    void startApp() throws Exception {
        plugin = new LoadsmithPlugin(stalls -> {
            stalls.port = 0;
            stalls.token = "t0ken";
            stalls.maxStalledShare = 1.0;
            stalls.version = "test";
        });
        app = Javalin.create(config -> {
            config.registerPlugin(plugin);
            config.routes.get("/hello", ctx -> ctx.result("hello"));
            config.routes.get("/slow", ctx -> {
                slowEntered.countDown();
                slowMayEnd.await();
                ctx.result("slow");
            });
        }).start(0);
        warmUp();
    }

    /** The first requests of a fresh Javalin app load classes for a while: keep that out of the stalls. */
    private void warmUp() throws Exception {
        for (int i = 0; i < 20; i++) {
            assertThat(app("/hello").statusCode()).isEqualTo(200);
        }
        assertThat(admin("GET", "/health", null).statusCode()).isEqualTo(200);
    }

    @AfterEach
    void stopApp() {
        app.stop();
    }

    @Test
    void the_admin_api_starts_with_the_app_and_answers_with_the_token() throws Exception {
        HttpResponse<String> health = admin("GET", "/health", null);
        assertThat(health.statusCode()).isEqualTo(200);
        JsonNode json = MAPPER.readTree(health.body());
        assertThat(json.get("version").asText()).isEqualTo("test");
        assertThat(json.get("armed").asBoolean()).isFalse();
        assertThat(plugin.adminAddress().getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void a_request_outside_any_stall_is_answered_at_once() throws Exception {
        HttpResponse<String> hello = app("/hello");
        assertThat(hello.statusCode()).isEqualTo(200);
        assertThat(hello.body()).isEqualTo("hello");
    }

    @Test
    void a_request_entering_during_a_stall_is_answered_only_after_its_end() throws Exception {
        String runId = arm("{\"stalls\": [{\"offset_ms\": 50, \"duration_ms\": 300}]}");
        poll().until(plugin.gate()::openWindow, Objects::nonNull);
        HttpResponse<String> hello = app("/hello");
        long answeredNanos = System.nanoTime();

        assertThat(hello.body()).isEqualTo("hello");
        JsonNode stall = onlyStall(runId);
        assertThat(answeredNanos).isGreaterThanOrEqualTo(stall.get("end_ns").asLong());
        assertThat(stall.get("held").asLong()).isEqualTo(1);
    }

    @Test
    void a_request_in_flight_when_a_stall_begins_is_answered_only_after_its_end() throws Exception {
        CompletableFuture<HttpResponse<String>> slow = http.sendAsync(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + app.port() + "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue(); // past the entry gate, in its handler
        String runId = arm("{\"stalls\": [{\"offset_ms\": 0, \"duration_ms\": 300}]}");
        poll().until(plugin.gate()::openWindow, Objects::nonNull);
        slowMayEnd.countDown(); // the handler ends inside the stall
        HttpResponse<String> answer = slow.get(10, TimeUnit.SECONDS);
        long answeredNanos = System.nanoTime();

        assertThat(answer.body()).isEqualTo("slow");
        JsonNode stall = onlyStall(runId);
        assertThat(answeredNanos).isGreaterThanOrEqualTo(stall.get("end_ns").asLong());
        assertThat(stall.get("held").asLong()).isEqualTo(1);
    }

    @Test
    void the_admin_api_stops_with_the_app() throws Exception {
        InetSocketAddress address = plugin.adminAddress();
        app.stop();
        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + address.getPort() + "/health")).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(ConnectException.class);
    }

    private String arm(String body) throws Exception {
        HttpResponse<String> armed = admin("POST", "/arm", body);
        assertThat(armed.statusCode()).as(armed.body()).isEqualTo(200);
        return MAPPER.readTree(armed.body()).get("run_id").asText();
    }

    /** Polls every millisecond, for at most 10 s. */
    private static ConditionFactory poll() {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1));
    }

    private JsonNode onlyStall(String runId) throws Exception {
        poll().until(() -> !plugin.controller().armed());
        JsonNode stalls = MAPPER.readTree(admin("GET", "/stalls?run_id=" + runId, null).body()).get("stalls");
        assertThat(stalls).hasSize(1);
        assertThat(stalls.get(0).get("end_ns").asLong() - stalls.get(0).get("start_ns").asLong()).isGreaterThanOrEqualTo(300 * MS);
        return stalls.get(0);
    }

    private HttpResponse<String> app(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + plugin.adminAddress().getPort() + path))
                .header("Authorization", "Bearer t0ken").timeout(Duration.ofSeconds(10));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
