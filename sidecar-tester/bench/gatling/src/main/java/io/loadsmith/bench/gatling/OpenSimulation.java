package io.loadsmith.bench.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The open model of sidecar-tester/bench/open-vs-peers.sh: one GET per virtual user, users arriving at a
 * constant rate (Gatling's {@code constantUsersPerSec}), status 200 checked; WARMUP seconds at the rate,
 * then SECONDS at the rate. All users share one connection pool ({@code shareConnections}: keep-alive
 * connections reused across users, a new one opened whenever none is idle; without it every user, so
 * every request, would open its own connection).
 *
 * <p>System properties: {@code url}, {@code rate} (users a second), {@code warmup} and {@code seconds},
 * {@code window} (a file). The simulation measures nothing itself: at the end of the warm-up and at the
 * end of the injection it notes the wall clock (epoch ms, Gatling's own clock in simulation.log) and the
 * process's CPU (the JVM's counter, as loadsmith's {@code cost.cpu_ns_per_request}) into the window file;
 * the script counts the requests that simulation.log has sent between the two, and their response times,
 * so that neither the JVM's start, the warm-up nor the report's generation is in the figures.
 */
public class OpenSimulation extends Simulation {

    private final String url = System.getProperty("url", "http://127.0.0.1:8080/");
    private final double rate = Double.parseDouble(System.getProperty("rate", "100"));
    private final long warmup = Long.parseLong(System.getProperty("warmup", "3"));
    private final long seconds = Long.parseLong(System.getProperty("seconds", "10"));
    private final Path windowFile = Path.of(System.getProperty("window", "gatling-window.txt"));

    private final HttpProtocolBuilder protocol = http.disableWarmUp().disableCaching().disableFollowRedirect()
            .shareConnections();

    private final ScenarioBuilder scenario = scenario("open")
            .exec(http("get").get(url).check(status().is(200)));

    {
        List<OpenInjectionStep> steps = new ArrayList<>();
        if (warmup > 0) {
            steps.add(constantUsersPerSec(rate).during(warmup));
        }
        steps.add(constantUsersPerSec(rate).during(seconds));
        setUp(scenario.injectOpen(steps)).protocols(protocol);
    }

    @Override
    public void before() {
        Thread t = new Thread(this::window, "open-vs-peers-window");
        t.setDaemon(true);
        t.start();
    }

    /** Notes the clock and the CPU when the warm-up ends and when the injection ends. */
    private void window() {
        try {
            long origin = System.nanoTime(); // the injection starts right after before()
            sleepUntil(origin + warmup * 1_000_000_000L);
            String start = "start_epoch_ms=" + System.currentTimeMillis() + "\nstart_cpu_ns=" + cpu() + "\n";
            sleepUntil(origin + (warmup + seconds) * 1_000_000_000L);
            String end = "end_epoch_ms=" + System.currentTimeMillis() + "\nend_cpu_ns=" + cpu() + "\n";
            Files.writeString(windowFile, start + end, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepUntil(long deadline) throws InterruptedException {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            Thread.sleep(Math.max(1, left / 1_000_000));
        }
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
