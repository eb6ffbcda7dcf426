package io.loadsmith.tester.client.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.client.jetty.TestServer;
import io.loadsmith.tester.engine.CountsAddUp;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.session.StallOptions;
import io.loadsmith.tester.session.StalledRun;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs on two event loops ({@code target.loops: 2}) against a real server on loopback. */
class NettyLanesIT {

    private static final long S = 1_000_000_000L;
    private static TestServer server;

    @TempDir
    Path dir;

    /** The threads that built requests: each lane builds its own on its loop. */
    private final Set<String> threads = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void startServer() throws Exception {
        server = TestServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close();
    }

    private RunResult run(TesterSpec spec, int connections) throws Exception {
        TransportOptions options = TransportOptions.connections(connections).withLoops(2);
        RequestSource get = RequestSource.get(server.uri("/sleep?ms=1"));
        RequestSource source = (arrival, position, connection) -> {
            threads.add(Thread.currentThread().getName());
            return get.request(arrival, position, connection);
        };
        try (OpenTransport http = Transports.open(options)) {
            assertThat(http.lanes()).hasSize(2);
            RunResult result = StalledRun.run(spec, http, source, dir, StallOptions.unstalled())
                    .withTransport(options, http).result();
            ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), ResultsFile.of(List.of(result)));
            return result;
        }
    }

    private List<RequestRecord> log() throws Exception {
        List<RequestRecord> records = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(dir.resolve(RequestLog.FILE_NAME))) {
            reader.forEachRemaining(records::add);
        }
        return records;
    }

    @Test
    void an_open_poisson_run_on_two_loops_is_one_run_sent_from_both() throws Exception {
        RunResult r = run(TesterSpec.open(300).duration(2 * S).grace(5 * S).seed(4).warmupRequests(20), 8);

        CountsAddUp.check(r);
        assertThat(r.counts().sent()).isEqualTo(r.counts().scheduled());
        assertThat(r.counts().errors()).isZero();
        assertThat(log()).hasSize((int) r.counts().scheduled());
        assertThat(r.transport().loops()).isEqualTo(2);
        assertThat(r.transport().sentPerLoop()).hasSize(2).allSatisfy(sent -> assertThat(sent).isPositive());
        assertThat(threads).hasSize(2).allSatisfy(name -> assertThat(name).startsWith("loadsmith-loop"));
        assertThat(ResultsReader.read(dir.resolve(ResultsWriter.FILE_NAME)).runs().get(0).transport().loops())
                .isEqualTo(2);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    RequestLog.FILE_NAME, "latency.hlog", ResultsWriter.FILE_NAME);
        }
    }

    @Test
    void a_closed_run_on_two_loops_runs_its_four_connections_two_on_each() throws Exception {
        RunResult r = run(TesterSpec.closed(4).duration(S).grace(5 * S), 4);

        CountsAddUp.check(r);
        assertThat(r.counts().errors()).isZero();
        assertThat(log()).extracting(RequestRecord::connection).containsOnly(0, 1, 2, 3);
        assertThat(log().stream().map(RequestRecord::connection).distinct().count()).isEqualTo(4);
        assertThat(r.connections().opened()).isEqualTo(4);
        assertThat(r.transport().sentPerLoop()).hasSize(2).allSatisfy(sent -> assertThat(sent).isPositive());
        assertThat(threads).hasSize(2);
    }
}
