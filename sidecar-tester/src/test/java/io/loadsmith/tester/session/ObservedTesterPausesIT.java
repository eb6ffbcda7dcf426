package io.loadsmith.tester.session;

import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.transport.TransportOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real runs against a loopback server in this JVM whose handler, on one request of the counted run once the
 * run's observer is up, calls {@code System.gc()} between two {@code System.nanoTime()} readings: a safepoint
 * of the tester's own JVM.
 */
class ObservedTesterPausesIT {

    private static final long S = 1_000_000_000L;
    /** Requests before the collecting one: the counted run (it has no warm-up) is under way. */
    private static final long REQUESTS_BEFORE = 50;

    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicBoolean collected = new AtomicBoolean();
    private volatile boolean observing;
    private volatile long gcStartNanos;
    private volatile long gcEndNanos;

    /**
     * The first JFR stream of a JVM takes seconds to start on a busy box (later ones a few ms): started once
     * here, so that the run's observer is up before the collecting request.
     */
    @BeforeAll
    static void startJfrOnce() {
        PauseObserver.safepointsOnly(Clock.system()).close();
    }

    @BeforeEach
    void startServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if (requests.incrementAndGet() > REQUESTS_BEFORE && observing && !collected.getAndSet(true)) {
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

    /** Sets {@link #observing} once the run's observer has started its JFR stream (its sync thread runs). */
    private void watchForTheObserver() {
        Thread watcher = new Thread(() -> {
            while (!observing) {
                observing = threadNamed(PauseObserver.SYNC_THREAD);
                LockSupport.parkNanos(5_000_000L);
            }
        }, "test-observer-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Without a safepoint (a thread dump would make one). */
    private static boolean threadNamed(String name) {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 64];
        int n = root.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            if (name.equals(threads[i].getName())) {
                return true;
            }
        }
        return false;
    }

    private RunResult run(TesterSpec tester) throws Exception {
        return run(tester, true);
    }

    private RunResult run(TesterSpec tester, boolean testerPauses) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        return StalledRun.real(tester, RequestSource.get(uri), TransportOptions.connections(4), dir,
                StallOptions.unstalled().withTesterPauses(testerPauses))
                .result();
    }

    private static List<Thread> observerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("loadsmith-pause")).toList();
    }

    @Test
    void a_collection_in_the_tester_during_the_run_is_listed_as_a_tester_safepoint_inside_its_bracket() throws Exception {
        watchForTheObserver();
        RunResult result = run(TesterSpec.open(100).duration(3 * S).grace(5 * S).seed(12));
        Path file = ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), ResultsFile.of(List.of(result)));

        assertThat(gcEndNanos).as("a request was served once the observer was up").isPositive();
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
        RunResult result = run(TesterSpec.open(100).duration(S).grace(5 * S).seed(12), false);

        assertThat(result.testerPauses()).isNull();
        assertThat(result.requestsMetTesterPause()).isNull();
        assertThat(observerThreads()).isEmpty();
    }
}
