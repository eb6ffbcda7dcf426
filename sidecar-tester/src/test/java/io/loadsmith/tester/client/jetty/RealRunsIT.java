package io.loadsmith.tester.client.jetty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.engine.CountsAddUp;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions.Kind;
import io.loadsmith.tester.transport.TransportOptions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Open, closed and paced runs through each real transport (Netty, the default, and Jetty) against a real
 * server with a known service time.
 */
class RealRunsIT {

    private static TestServer server;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() throws Exception {
        server = TestServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private RunResult run(Kind kind, TesterSpec spec, URI uri, int connections) throws Exception {
        try (OpenTransport http = Transports.open(TransportOptions.connections(connections).withKind(kind))) {
            return LoadRun.run(spec, http.scheduler(), http.transport(), RequestSource.get(uri),
                    dir.resolve(spec.name()));
        }
    }

    /** scheduled = sent + dropped + skipped and sent = completed + errors (RunResult.Counts). */
    private static void assertCountsAddUp(RunResult r) {
        CountsAddUp.check(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void an_open_run_sends_every_scheduled_request_with_a_known_service_time(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.open(200).arrivals(TesterSpec.Arrivals.CONSTANT).duration(1_000_000_000L)
                .grace(2_000_000_000L).name("open"), server.uri("/sleep?ms=2"), 16);
        RunResult.Counts c = r.counts();
        assertThat(c.scheduled()).isEqualTo(200);
        assertThat(c.sent()).isEqualTo(200);
        assertThat(c.completed()).isEqualTo(200);
        assertThat(c.errors()).isZero();
        assertThat(c.dropped()).isZero();
        assertCountsAddUp(r);
        assertThat(r.latencyMs().service().p50()).isGreaterThanOrEqualTo(2.0);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_closed_run_counts_add_up(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.closed(2).duration(500_000_000L).grace(2_000_000_000L).name("closed"),
                server.uri("/sleep?ms=5"), 2);
        RunResult.Counts c = r.counts();
        assertThat(c.sent()).isPositive();
        assertThat(c.errors()).isZero();
        assertThat(c.completed()).isEqualTo(c.sent());
        assertCountsAddUp(r);
        assertThat(r.latencyMs().service().p50()).isGreaterThanOrEqualTo(5.0);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_paced_run_sends_one_iteration_per_pace_per_connection(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.paced(4, 20_000_000L).duration(1_000_000_000L).grace(2_000_000_000L).name("paced"),
                server.uri("/sleep?ms=2"), 4);
        RunResult.Counts c = r.counts();
        assertThat(c.scheduled()).isEqualTo(200);
        assertThat(c.sent()).isEqualTo(200);
        assertThat(c.completed()).isEqualTo(200);
        assertCountsAddUp(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_slow_server_beyond_the_grace_is_dropped_not_fatal(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.open(20).arrivals(TesterSpec.Arrivals.CONSTANT).duration(500_000_000L)
                .grace(1_000_000_000L).name("slow"), server.uri("/sleep?ms=4000"), 16);
        RunResult.Counts c = r.counts();
        assertThat(c.scheduled()).isEqualTo(10);
        assertThat(c.sent()).isZero();
        assertThat(c.dropped()).isEqualTo(10);
        assertThat(c.droppedAfterSend()).isEqualTo(10);
        assertThat(c.completed()).isZero();
        assertCountsAddUp(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_refusing_server_is_counted_as_errors_not_fatal(Kind kind) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        RunResult r = run(kind, TesterSpec.open(50).arrivals(TesterSpec.Arrivals.CONSTANT).duration(200_000_000L)
                .grace(1_000_000_000L).name("refused"), URI.create("http://127.0.0.1:" + port + "/"),
                4);
        RunResult.Counts c = r.counts();
        assertThat(c.scheduled()).isEqualTo(10);
        assertThat(c.errors()).isEqualTo(10);
        // refused before reaching a socket: they ended (in an error), so they count as sent, not dropped
        assertThat(c.sent()).isEqualTo(10);
        assertThat(c.completed()).isZero();
        assertThat(c.dropped()).isZero();
        assertCountsAddUp(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void server_errors_are_counted_as_errors(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.open(100).arrivals(TesterSpec.Arrivals.CONSTANT).duration(200_000_000L)
                .grace(1_000_000_000L).name("status"), server.uri("/status?code=500"), 4);
        RunResult.Counts c = r.counts();
        assertThat(c.scheduled()).isEqualTo(20);
        assertThat(c.sent()).isEqualTo(20);
        assertThat(c.completed()).isZero();
        assertThat(c.errors()).isEqualTo(20);
        assertCountsAddUp(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_paced_run_against_a_failing_server_counts_errors_apart_from_completed(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.paced(2, 20_000_000L).duration(200_000_000L).grace(1_000_000_000L)
                .name("paced-status"), server.uri("/status?code=503"), 2);
        RunResult.Counts c = r.counts();
        assertThat(c.scheduled()).isEqualTo(20);
        assertThat(c.sent()).isEqualTo(20);
        assertThat(c.errors()).isEqualTo(20);
        assertThat(c.completed()).isZero();
        assertCountsAddUp(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void a_closed_run_against_a_failing_server_counts_errors_apart_from_completed(Kind kind) throws Exception {
        RunResult r = run(kind, TesterSpec.closed(2).duration(200_000_000L).grace(1_000_000_000L).name("closed-status"),
                server.uri("/status?code=500"), 2);
        RunResult.Counts c = r.counts();
        assertThat(c.errors()).isPositive().isEqualTo(c.sent());
        assertThat(c.completed()).isZero();
        assertCountsAddUp(r);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void counts_add_up_for_every_model_when_the_target_dies_mid_run(Kind kind) throws Exception {
        for (TesterSpec spec : List.of(
                TesterSpec.open(200).arrivals(TesterSpec.Arrivals.CONSTANT).duration(1_000_000_000L)
                        .grace(1_000_000_000L).name("open-dies"),
                TesterSpec.closed(4).duration(1_000_000_000L).grace(1_000_000_000L).name("closed-dies"),
                TesterSpec.paced(4, 20_000_000L).duration(1_000_000_000L).grace(1_000_000_000L).name("paced-dies"))) {
            TestServer doomed = TestServer.start();
            Thread killer = new Thread(() -> {
                try {
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(2))
                            .until(() -> doomed.requests.get() >= 40);
                } finally {
                    try {
                        doomed.close();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            }, "target-killer");
            killer.start();
            RunResult r = run(kind, spec, doomed.uri("/sleep?ms=2"), 4);
            killer.join(15_000);
            RunResult.Counts c = r.counts();
            assertThat(c.completed()).as("%s: answered before the target died", spec.name()).isPositive();
            assertThat(c.errors()).as("%s: errors after it died", spec.name()).isPositive();
            assertCountsAddUp(r);
        }
    }
}
