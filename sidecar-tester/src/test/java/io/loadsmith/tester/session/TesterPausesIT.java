package io.loadsmith.tester.session;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.TransportOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real runs against a loopback server in this JVM whose handler, on one request of the counted run, calls
 * {@code System.gc()} between two {@code System.nanoTime()} readings: a safepoint of the tester's own JVM.
 */
class TesterPausesIT {

    private static final long S = 1_000_000_000L;
    /** The request (counted from 1) whose handler collects: past the warm-up-free run's first second. */
    private static final long COLLECTING_REQUEST = 120;

    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicLong requests = new AtomicLong();
    private volatile long gcStartNanos;
    private volatile long gcEndNanos;

    @BeforeEach
    void startServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if (requests.incrementAndGet() == COLLECTING_REQUEST) {
                gcStartNanos = System.nanoTime();
                System.gc();
                gcEndNanos = System.nanoTime();
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private RunResult run(TesterSpec tester) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        return StalledRun.real(tester, RequestSource.get(uri), TransportOptions.connections(4), dir, null, null)
                .result();
    }

    private static List<Thread> observerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("loadsmith-pause")).toList();
    }

    @Test
    void a_collection_in_the_tester_during_the_run_is_listed_as_a_tester_safepoint_inside_its_bracket() throws Exception {
        RunResult result = run(TesterSpec.open(100).duration(2 * S).grace(5 * S).seed(12));
        Path file = ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), ResultsFile.of(List.of(result)));

        assertThat(gcEndNanos).as("the collecting request was served").isPositive();
        assertThat(gcStartNanos).isBetween(result.startNs(), result.endNs());
        assertThat(result.testerPauses())
                .as("a safepoint inside [%d, %d]", gcStartNanos, gcEndNanos)
                .anySatisfy(p -> {
                    assertThat(p.source()).isEqualTo("safepoint");
                    assertThat(p.label()).isNotBlank();
                    assertThat(p.startNs()).isGreaterThanOrEqualTo(gcStartNanos);
                    assertThat(p.endNs()).isLessThanOrEqualTo(gcEndNanos);
                });
        assertThat(result.requestsMetTesterPause()).isNotNull();
        RunResult read = ResultsReader.read(file).runs().get(0);
        assertThat(read.testerPauses()).isEqualTo(result.testerPauses());
        assertThat(read.requestsMetTesterPause()).isEqualTo(result.requestsMetTesterPause());
        await().atMost(Duration.ofSeconds(30)).until(() -> observerThreads().isEmpty());
    }

    @Test
    void with_tester_pauses_off_a_run_starts_no_observer_and_lists_none() throws Exception {
        RunResult result = run(TesterSpec.open(100).duration(S).grace(5 * S).seed(12).testerPauses(false));

        assertThat(result.testerPauses()).isNull();
        assertThat(result.requestsMetTesterPause()).isNull();
        assertThat(observerThreads()).isEmpty();
    }
}
