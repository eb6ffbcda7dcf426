package io.loadsmith.tester.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.engine.CountsAddUp;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.engine.TesterSpec.Arrivals;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.session.StalledRun;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.Transports;
import io.loadsmith.tester.transport.http.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Constant arrivals 100 µs apart or closer, where every gap is within the loop's wake-up lead: the loop must
 * read answers while it goes on sending (a loop that runs due sends back to back without returning to
 * epoll sends its whole schedule at the end, seconds late). The bounds catch that failure only; the loop's
 * punctuality is measured by the benchmarks (docs/benchmarks.md).
 */
class OpenLoopRatesIT {

    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
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

    @ParameterizedTest(name = "constant {0}/s, precision {1} µs")
    @CsvSource({"10000, 50", "20000, 50", "10000, 1000"})
    void constant_arrivals_are_sent_on_time_and_answered_while_sending_goes_on(int rate, long precisionMicros)
            throws Exception {
        TesterSpec spec = TesterSpec.open(rate).arrivals(Arrivals.CONSTANT).duration(2 * S).grace(5 * S)
                .warmupDuration(S / 2).startDelay(200 * MS).precision(precisionMicros * 1_000);
        RunResult r;
        try (OpenTransport http = Transports.open(TransportOptions.connections(64))) {
            r = StalledRun.run(spec, http, RequestSource.get(server.uri("/")), dir, null, null, new RunControl())
                    .result();
        }

        CountsAddUp.check(r);
        assertThat(r.counts().scheduled()).isEqualTo(2L * rate);
        assertThat(r.counts().completed()).isEqualTo(r.counts().scheduled());
        assertThat(r.tester().precisionMs()).isEqualTo(precisionMicros / 1_000.0);
        // the failure this catches: every send at the end of the run, p99 over a second late
        assertThat(r.sendLatenessMs().p99()).as("send lateness p99, ms").isLessThan(250.0);

        List<RequestRecord> log = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(dir.resolve(RequestLog.FILE_NAME))) {
            reader.forEachRemaining(log::add);
        }
        long lastSend = log.stream().mapToLong(RequestRecord::sentNanos).max().orElseThrow();
        long answeredWhileSending = log.stream().filter(q -> q.endNanos() > 0 && q.endNanos() < lastSend).count();
        assertThat(answeredWhileSending).as("answers read before the last send").isGreaterThan(log.size() * 9L / 10);
    }
}
