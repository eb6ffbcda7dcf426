package io.loadsmith.tester.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ServerStall;
import io.loadsmith.tester.result.RunResult;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The stalls of a run fetched as it goes, against a loopback server that answers {@code GET /stalls} the
 * way the agent does, then stops (connection refused), on a clock moved by hand.
 */
class StallFeedTest {

    private static final long S = 1_000_000_000L;

    private final AtomicLong nowNanos = new AtomicLong();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger ended = new AtomicInteger();
    private final AtomicInteger status = new AtomicInteger(200);
    private HttpServer server;

    private AdminClient agent() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/stalls", exchange -> {
            calls.add(exchange.getRequestURI().getQuery());
            long since = Long.parseLong(exchange.getRequestURI().getQuery().replaceAll(".*since_index=(\\d+).*", "$1"));
            StringBuilder stalls = new StringBuilder();
            for (long i = since; i < ended.get(); i++) {
                stalls.append(stalls.length() == 0 ? "" : ",").append("{\"index\":").append(i)
                        .append(",\"run_id\":\"r-1\",\"planned_start_ns\":").append(i * S).append(",\"start_ns\":")
                        .append(i * S).append(",\"end_ns\":").append(i * S + 100).append(",\"held\":3,\"kind\":\"block\"}");
            }
            String body = status.get() == 200 ? "{\"run_id\":\"r-1\",\"next_index\":" + Math.max(since, ended.get())
                    + ",\"more\":false,\"dropped\":0,\"stalls\":[" + stalls + "]}" : "{\"error\":\"wrong token\"}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return AdminClient.of(URI.create("http://127.0.0.1:" + server.getAddress().getPort()), null);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void each_fetch_asks_only_for_the_windows_after_the_last_one_fetched() throws Exception {
        StallFeed feed = StallFeed.byHand(agent(), "r-1", nowNanos::get);
        ended.set(2);
        feed.fetch();
        feed.fetch();
        ended.set(3);

        StallFeed.Fetched fetched = feed.finish();

        assertThat(calls).containsExactly("since_index=0&run_id=r-1", "since_index=2&run_id=r-1",
                "since_index=2&run_id=r-1");
        assertThat(fetched.stalls()).extracting(ServerStall::index).containsExactly(0, 1, 2);
        assertThat(fetched.lost()).isFalse();
        assertThat(fetched.confirmedUntilNanos(10 * S)).isEqualTo(10 * S);
    }

    @Test
    void an_agent_that_stops_answering_leaves_the_windows_fetched_before_and_when_it_stopped() throws Exception {
        StallFeed feed = StallFeed.byHand(agent(), "r-1", nowNanos::get);
        ended.set(2);
        nowNanos.set(3 * S);
        feed.fetch();
        server.stop(0);
        nowNanos.set(4 * S);
        feed.fetch();
        nowNanos.set(11 * S);

        StallFeed.Fetched fetched = feed.finish();

        assertThat(fetched.lost()).isTrue();
        assertThat(fetched.stalls()).extracting(ServerStall::index).containsExactly(0, 1);
        assertThat(fetched.lastAnsweredNanos()).isEqualTo(3 * S);
        assertThat(fetched.unansweredSinceNanos()).isEqualTo(4 * S);
        assertThat(fetched.confirmedUntilNanos(10 * S)).as("a poll interval before the last answer").isEqualTo(2 * S);
        assertThat(fetched.failure().getMessage()).contains("cannot reach the agent's admin API for GET /stalls");
    }

    @Test
    void a_fetch_that_fails_once_and_is_answered_again_is_not_a_lost_agent() throws Exception {
        StallFeed feed = StallFeed.byHand(agent(), "r-1", nowNanos::get);
        status.set(503);
        feed.fetch();
        status.set(200);
        ended.set(1);

        StallFeed.Fetched fetched = feed.finish();

        assertThat(fetched.lost()).isFalse();
        assertThat(fetched.stalls()).extracting(ServerStall::index).containsExactly(0);
    }

    @Test
    void an_agent_that_answers_the_last_fetch_with_an_error_fails_the_run_instead_of_being_lost() throws Exception {
        StallFeed feed = StallFeed.byHand(agent(), "r-1", nowNanos::get);
        status.set(401);

        assertThatThrownBy(feed::finish).isInstanceOfSatisfying(AdminException.class,
                e -> assertThat(e.status()).isEqualTo(401));
    }

    @Test
    void planned_stalls_due_after_the_last_answer_are_unconfirmed_and_those_due_before_are_missing() {
        List<PlannedStall> planned = List.of(new PlannedStall(0, 200_000_000L, 100_000_000L),
                new PlannedStall(1, 900_000_000L, 100_000_000L), new PlannedStall(2, 1_500_000_000L, 100_000_000L),
                new PlannedStall(3, 2_500_000_000L, 100_000_000L), new PlannedStall(4, 5_000_000_000L, 100_000_000L),
                new PlannedStall(5, 9_950_000_000L, 100_000_000L));
        List<ServerStall> fetched = List.of(new ServerStall(0, 0, 0, 1, 1, "block", "r-1"),
                new ServerStall(1, 0, 0, 1, 1, "block", "r-1"));
        StallFeed.Fetched lost = new StallFeed.Fetched(fetched, 3 * S, 4 * S,
                new AdminException("admin http://127.0.0.1:1: cannot reach", 0, null));

        RunResult.AgentLost agentLost = StallFeed.agentLost(lost, planned, 0, S / 2, 10 * S, List.of(2));

        assertThat(agentLost).isEqualTo(new RunResult.AgentLost(3_500.0, List.of(3, 4),
                "admin http://127.0.0.1:1: cannot reach"));
        assertThat(StallFeed.warning(agentLost.atMs(), 2, agentLost.unconfirmedStalls())).isEqualTo("the agent stopped answering 3.5 s into the run: the 2 stall "
                + "window(s) fetched before are kept and aligned; 2 planned stall(s) inside the counted span could not "
                + "be confirmed (indices [3, 4]): they may or may not have happened");
    }
}
