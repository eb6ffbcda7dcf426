package io.loadsmith.tester.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.TransportOptions;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real run against a loopback server whose handler, on one request of the counted run, dumps this JVM's
 * threads (a {@code ThreadDump} safepoint of the tester's own JVM) between two {@code System.nanoTime()}
 * readings.
 */
class SelfPausesIT {

    private static final long S = 1_000_000_000L;
    /** The request (counted from 1) whose handler dumps the threads: well inside the counted run. */
    private static final long DUMPING_REQUEST = 50;

    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicLong requests = new AtomicLong();
    private volatile long dumpStartNanos;
    private volatile long dumpEndNanos;

    @BeforeEach
    void startServer() throws Exception {
        // the first dump loads what dumping needs: the bracketed one then holds the dump alone
        ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if (requests.incrementAndGet() == DUMPING_REQUEST) {
                dumpStartNanos = System.nanoTime();
                ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
                dumpEndNanos = System.nanoTime();
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

    @Test
    void a_thread_dump_in_the_tester_during_the_run_is_a_tester_pause_that_a_request_met() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        RunResult result = StalledRun.real(TesterSpec.open(100).duration(2 * S).grace(5 * S).seed(12),
                RequestSource.get(uri), TransportOptions.connections(4), dir, null, null).result();
        Path file = dir.resolve(ResultsWriter.FILE_NAME);
        ResultsWriter.write(file, ResultsFile.of(List.of(result)));

        assertThat(dumpEndNanos).as("the dumping request was served").isPositive();
        assertThat(dumpStartNanos).isBetween(result.startNs(), result.endNs());
        assertThat(result.testerPauses())
                .as("a ThreadDump safepoint inside [%d, %d]", dumpStartNanos, dumpEndNanos)
                .anySatisfy(p -> {
                    assertThat(p.source()).isEqualTo("safepoint");
                    assertThat(p.label()).startsWith("ThreadDump");
                    assertThat(p.startNs()).isGreaterThanOrEqualTo(dumpStartNanos);
                    assertThat(p.endNs()).isLessThanOrEqualTo(dumpEndNanos);
                });
        assertThat(result.requestsMetTesterPause()).isGreaterThanOrEqualTo(1);
        RunResult read = ResultsReader.read(file).runs().get(0);
        assertThat(read.testerPauses()).isEqualTo(result.testerPauses());
        assertThat(read.requestsMetTesterPause()).isEqualTo(result.requestsMetTesterPause());
    }
}
