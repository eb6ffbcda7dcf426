package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.ResultsSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in {@code loadsmith experiment}: the CLI in a child JVM runs a small experiment (one arm, stall
 * on, two rounds of 30 s) whose managed scored service is its own child JVM; SIGINT once the first run is
 * sending. Sending stops, the run so far is written (results.json without the experiment analysis, the
 * run's files, the report), the service is stopped, and the exit status is 130.
 */
class StopExperimentIT {

    @TempDir
    Path dir;

    @Test
    void sigint_during_an_experiment_writes_the_run_so_far_stops_the_service_and_exits_130() throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        assertThat(ServiceProcess.Jars.under(root).missing()).as("jars the test needs").isNull();
        Path experiment = dir.resolve("stop.yaml");
        Files.writeString(experiment, """
                name: stop
                scenario: %s
                rounds: 2
                duration: 30s
                warmup: 50
                grace: 1s
                seed: 1
                stall: on
                stalls: {mean_interval: 1s, duration: 100ms, min_gap: 500ms, kind: block}
                service: {managed: scoring-service, threads: 4, restart: once}
                arms:
                  - name: open-100
                    load: {model: open, arrivals: poisson, rate: 100, max_concurrency: 64}
                """.formatted(root.resolve("examples/scenarios/score-fixed-rate.yaml")));
        Path out = dir.resolve("out");
        Path console = dir.resolve("console.txt");
        Path firstRun = out.resolve("runs").resolve("r1-open-100-stall");
        Process child = ChildCli.start(console, root, "experiment", experiment.toString(), "--out", out.toString());
        List<ProcessHandle> services;
        try {
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(50)).until(() -> !child.isAlive()
                    || Files.readString(console).contains("round 1/2, run 1:")
                    && Files.isRegularFile(firstRun.resolve(RequestLog.FILE_NAME)));
            assertThat(child.isAlive()).as("the experiment still runs; console: %s", Files.readString(console))
                    .isTrue();
            services = child.descendants().toList();
            assertThat(services).as("the managed service").isNotEmpty();
            ChildCli.interrupt(child);
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("exited; console: %s", Files.readString(console))
                    .isTrue();
        } finally {
            ChildCli.destroyTree(child);
        }
        String printed = Files.readString(console);
        assertThat(child.exitValue()).as("the exit status of a SIGINT; console: %s", printed).isEqualTo(130);
        assertThat(printed).contains("stopping: no new requests").contains("stopped early: 1 runs written")
                .doesNotContain("round 1/2, run 2:").doesNotContain("Exception");
        assertThat(ResultsSchema.problems(out.resolve("results.json"))).as(printed).isEmpty();
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        assertThat(results.has("experiment")).as("no analysis of a stopped experiment").isFalse();
        assertThat(results.at("/runs")).hasSize(1);
        assertThat(results.at("/runs/0/interrupted").asBoolean()).isTrue();
        assertThat(firstRun.resolve(RequestLog.FILE_NAME)).isNotEmptyFile();
        assertThat(firstRun.resolve("latency.hlog")).isNotEmptyFile();
        assertThat(out.resolve("report.html")).as(printed).isNotEmptyFile();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> services.stream().noneMatch(ProcessHandle::isAlive));
    }
}
