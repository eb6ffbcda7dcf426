package io.loadsmith.stall.admin.javalin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.javalin.Javalin;
import io.loadsmith.stall.gate.GateWindow;
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
        assertThat(json.get("pauses").get("observing").asBoolean()).isTrue();
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
        String runId = arm("{\"stalls\": [{\"offset_ms\": 50, \"duration_ms\": 10000}]}");
        GateWindow window = poll().until(plugin.gate()::openWindow, Objects::nonNull);
        CompletableFuture<HttpResponse<String>> hello = http.sendAsync(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + app.port() + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
        poll().until(window::held, held -> held == 1);

        assertThat(answeredAfterDisarm(hello, runId).body()).isEqualTo("hello");
    }

    /** The stall in progress is ended by /disarm once a request is held, so no timer decides the outcome. */
    @Test
    void a_request_in_flight_when_a_stall_begins_is_answered_only_after_its_end() throws Exception {
        CompletableFuture<HttpResponse<String>> slow = http.sendAsync(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + app.port() + "/slow")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue(); // past the entry gate, in its handler
        String runId = arm("{\"stalls\": [{\"offset_ms\": 0, \"duration_ms\": 10000}]}");
        GateWindow window = poll().until(plugin.gate()::openWindow, Objects::nonNull);
        slowMayEnd.countDown(); // the handler ends inside the stall
        poll().until(window::held, held -> held == 1); // its response is held

        assertThat(answeredAfterDisarm(slow, runId).body()).isEqualTo("slow");
    }

    /** With one request held: it is not answered, /disarm ends the stall, and then it is, after the stall's end. */
    private HttpResponse<String> answeredAfterDisarm(CompletableFuture<HttpResponse<String>> held, String runId)
            throws Exception {
        assertThat(held).isNotDone();
        JsonNode disarmed = MAPPER.readTree(admin("POST", "/disarm", "").body());
        HttpResponse<String> answer = held.get(10, TimeUnit.SECONDS);
        long answeredNanos = System.nanoTime();

        JsonNode stall = disarmed.get("stalls").get(0);
        assertThat(stall.get("run_id").asText()).isEqualTo(runId);
        assertThat(answeredNanos).isGreaterThanOrEqualTo(stall.get("end_ns").asLong());
        assertThat(stall.get("held").asLong()).isEqualTo(1);
        return answer;
    }

    @Test
    void the_admin_api_and_the_pause_observer_stop_with_the_app() throws Exception {
        InetSocketAddress address = plugin.adminAddress();
        app.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(thread -> thread.getName().startsWith("loadsmith-pause")));
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
