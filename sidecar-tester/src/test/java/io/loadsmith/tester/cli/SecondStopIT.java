package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loadsmith.tester.record.RequestLog;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second Ctrl-C: {@code loadsmith run} in a child JVM against a loopback server that never answers, so
 * that after the first SIGINT the run waits out its 60 s grace; a second SIGINT ends the process at once
 * with 130, and no file is left half-written under a final name: no results.json or report yet (they are
 * written atomically, last), and the request log, which had not written its first buffer, is refused by
 * its reader with a message saying the run did not finish.
 */
class SecondStopIT {

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final AtomicLong received = new AtomicLong();
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void startServer() throws IOException {
        handlers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "second-stop-handler");
            thread.setDaemon(true);
            return thread;
        });
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(handlers);
        server.createContext("/work", this::neverAnswer);
        server.start();
    }

    private void neverAnswer(HttpExchange exchange) {
        received.incrementAndGet();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exchange.close();
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void a_second_sigint_exits_at_once_with_130_and_leaves_no_file_half_written() throws Exception {
        Path scenario = dir.resolve("hang.yaml");
        Files.writeString(scenario, """
                name: hang
                target:
                  url: http://127.0.0.1:%d
                load: {model: open, arrivals: constant, rate: 50, duration: 60s, grace: 60s, max_concurrency: 128}
                journeys:
                  - name: work
                    steps:
                      - request: GET /work
                """.formatted(server.getAddress().getPort()));
        Path out = dir.resolve("out");
        Path console = dir.resolve("console.txt");
        Process child = ChildCli.start(console, null, "run", scenario.toString(), "--out", out.toString(),
                "--progress", "none");
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !child.isAlive() || received.get() >= 20);
            assertThat(child.isAlive()).as("console: %s", Files.readString(console)).isTrue();
            ChildCli.interrupt(child);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !child.isAlive() || Files.readString(console).contains("stopping: no new requests"));
            assertThat(child.isAlive()).as("waiting out the grace; console: %s", Files.readString(console)).isTrue();
            ChildCli.interrupt(child);
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("exited long before the 60 s grace; console: %s",
                    Files.readString(console)).isTrue();
        } finally {
            ChildCli.destroyTree(child);
        }
        String printed = Files.readString(console);
        assertThat(child.exitValue()).as(printed).isEqualTo(130);
        assertThat(out.resolve("results.json")).doesNotExist();
        assertThat(out.resolve("report.html")).doesNotExist();
        assertThatThrownBy(() -> RequestLog.read(out.resolve(RequestLog.FILE_NAME)).close())
                .isInstanceOf(EOFException.class)
                .hasMessage(out.resolve(RequestLog.FILE_NAME) + ": not a whole request log (0 bytes, its header "
                        + "alone is 32): the run that wrote it did not finish");
    }
}
