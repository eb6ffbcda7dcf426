package io.loadsmith.tester.agentclient;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client against a loopback server that answers the admin protocol's shapes (docs/admin-api.md). */
class AdminClientTest {

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private URI serve(Map<String, String[]> answers) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " " + body + " " + auth);
            String[] answer = answers.getOrDefault(exchange.getRequestMethod() + " " + exchange.getRequestURI(),
                    new String[] {"404", "{\"error\":\"no such endpoint\"}"});
            byte[] bytes = answer[1].getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(Integer.parseInt(answer[0]), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void arming_a_seeded_plan_sends_milliseconds_and_reads_the_run_id_and_the_planned_stalls() throws Exception {
        URI base = serve(Map.of("POST /arm", new String[] {"200", "{\"run_id\":\"r-1\",\"armed_at_ns\":5000,"
                + "\"kind\":\"block\",\"horizon_ns\":10000000000,\"stalls\":[{\"index\":0,\"offset_ns\":2000000000,"
                + "\"planned_start_ns\":2000005000,\"duration_ns\":100000000}]}"}));
        AdminClient admin = AdminClient.of(base, "secret");

        AdminClient.Armed armed = admin.arm(new SeededPlanSpec(7, 4_000_000_000L, 100_000_000L, 500_000_000L,
                10_000_000_000L), StallKind.BLOCK);

        assertThat(armed).isEqualTo(new AdminClient.Armed("r-1", 5000, 10_000_000_000L,
                List.of(new PlannedStall(0, 2_000_000_000L, 100_000_000L))));
        assertThat(requests).containsExactly("POST /arm {\"seed\":7,\"mean_interval_ms\":4000.0,\"duration_ms\":100.0,"
                + "\"min_gap_ms\":500.0,\"horizon_ms\":10000.0,\"kind\":\"block\"} Bearer secret");
    }

    @Test
    void the_observed_pauses_are_fetched_page_by_page_and_kept_as_served() throws Exception {
        String safepoint = "{\"index\":0,\"source\":\"safepoint\",\"label\":\"GenCollectFull SerialOld (System.gc())\","
                + "\"start_ns\":1000,\"end_ns\":3000,\"operation\":\"GenCollectFull\",\"gc\":\"SerialOld (System.gc())\","
                + "\"time_to_safepoint_ns\":200}";
        String sleeper = "{\"index\":1,\"source\":\"sleeper\",\"label\":\"attributed\",\"start_ns\":1100,\"end_ns\":3100}";
        URI base = serve(Map.of(
                "GET /pauses?since_index=0", new String[] {"200", "{\"observing\":true,\"jfr\":\"on\",\"next_index\":1,"
                        + "\"more\":true,\"dropped\":0,\"pauses\":[" + safepoint + "]}"},
                "GET /pauses?since_index=1", new String[] {"200", "{\"observing\":true,\"jfr\":\"on\",\"next_index\":2,"
                        + "\"more\":false,\"dropped\":0,\"pauses\":[" + sleeper + "]}"}));

        AdminClient.PausePage pauses = AdminClient.of(base, null).pauses();

        assertThat(pauses.observing()).isTrue();
        assertThat(pauses.jfr()).isEqualTo("on");
        assertThat(pauses.nextIndex()).isEqualTo(2);
        assertThat(pauses.pauses()).extracting(ServerPause::index).containsExactly(0, 1);
        ServerPause first = pauses.pauses().get(0);
        assertThat(first.label()).isEqualTo("GenCollectFull SerialOld (System.gc())");
        assertThat(first.timeToSafepointNanos()).isEqualTo(200L);
        assertThat(first.json().toString()).isEqualTo(safepoint);
        assertThat(pauses.pauses().get(1).timeToSafepointNanos()).isNull();
        assertThat(pauses.pauses().get(1).onTesterClock(new ClockOffset(100, 0, 0, 1)))
                .isEqualTo(new io.loadsmith.tester.align.AlignedPause(1, "sleeper", "attributed", 1000, 3000, null));
    }

    @Test
    void an_agent_without_pauses_answers_404_with_its_status() throws Exception {
        URI base = serve(Map.of());

        assertThatThrownBy(() -> AdminClient.of(base, null).pauses())
                .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(404))
                .hasMessageContaining("GET /pauses answered 404");
    }

    @Test
    void the_stalls_of_a_run_are_fetched_page_by_page() throws Exception {
        URI base = serve(Map.of(
                "GET /stalls?since_index=0&run_id=r-1", new String[] {"200", "{\"run_id\":\"r-1\",\"next_index\":2,"
                        + "\"more\":true,\"dropped\":0,\"stalls\":[" + stall(0) + "," + stall(1) + "]}"},
                "GET /stalls?since_index=2&run_id=r-1", new String[] {"200", "{\"run_id\":\"r-1\",\"next_index\":3,"
                        + "\"more\":false,\"dropped\":0,\"stalls\":[" + stall(2) + "]}"}));

        List<ServerStall> stalls = AdminClient.of(base, null).stalls("r-1");

        assertThat(stalls).extracting(ServerStall::index).containsExactly(0, 1, 2);
        assertThat(stalls.get(1)).isEqualTo(new ServerStall(1, 1000, 1010, 1110, 4, "block", "r-1"));
        assertThat(requests).hasSize(2).allMatch(line -> line.endsWith(" null"));
    }

    private static String stall(int index) {
        long start = index * 1000L;
        return "{\"index\":" + index + ",\"run_id\":\"r-1\",\"planned_start_ns\":" + start + ",\"start_ns\":"
                + (start + 10) + ",\"end_ns\":" + (start + 110) + ",\"held\":4,\"kind\":\"block\"}";
    }

    @Test
    void the_clock_probe_reads_now_ns() throws Exception {
        URI base = serve(Map.of("GET /clock", new String[] {"200", "{\"now_ns\":123456789,\"wall_time_ms\":1,\"pid\":2}"}));
        assertThat(AdminClient.of(base, null).serverNanos()).isEqualTo(123456789L);
    }

    @Test
    void a_refused_call_names_the_address_the_call_the_status_and_the_agents_reason() throws Exception {
        URI base = serve(Map.of("POST /arm", new String[] {"400", "{\"error\":\"duration_ms: must be > 0 (got 0)\"}"}));

        assertThatThrownBy(() -> AdminClient.of(base, null).arm(List.of(new PlannedStall(0, 0, 1)), StallKind.SPIN))
                .isInstanceOfSatisfying(AdminException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.badInput()).isTrue();
                })
                .hasMessage("admin " + base + ": POST /arm answered 400: duration_ms: must be > 0 (got 0)");
    }

    @Test
    void a_wrong_token_says_to_check_the_token() throws Exception {
        URI base = serve(Map.of("GET /clock", new String[] {"401", "{\"error\":\"wrong token\"}"}));

        assertThatThrownBy(() -> AdminClient.of(base, "nope").serverNanos())
                .hasMessage("admin " + base + ": GET /clock answered 401: wrong token (check the token or token_file: "
                        + "it must match the agent's token=)");
    }

    @Test
    void an_agent_that_is_not_there_is_reported_as_unreachable() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        URI base = URI.create("http://127.0.0.1:" + port);

        assertThatThrownBy(() -> AdminClient.of(base, null).health())
                .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isZero())
                .hasMessageStartingWith("admin " + base + ": cannot reach the agent's admin API for GET /health");
    }

    @Test
    void an_answer_that_is_not_the_protocol_is_named_as_such() throws Exception {
        URI base = serve(Map.of("GET /clock", new String[] {"200", "<html>hello</html>"}));

        assertThatThrownBy(() -> AdminClient.of(base, null).serverNanos())
                .hasMessage("admin " + base + ": GET /clock answered something that is not the admin protocol's JSON: "
                        + "<html>hello</html>");
    }

    @Test
    void an_address_that_is_not_http_is_refused() {
        assertThatThrownBy(() -> AdminClient.of(URI.create("localhost:7070"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("admin: localhost:7070 is not an http://HOST:PORT address");
    }
}
