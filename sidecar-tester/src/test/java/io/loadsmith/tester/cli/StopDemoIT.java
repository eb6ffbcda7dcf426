package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.result.ResultsSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in {@code loadsmith demo}: the CLI in a child JVM (which starts the scored service in its own child
 * JVM), SIGINT once the first tester is sending; the demo writes what ran so far, stops the service and
 * exits 130.
 */
class StopDemoIT {

    private static final Pattern SERVICE_PID = Pattern.compile("\\(pid (\\d+)\\)");

    @TempDir
    Path dir;

    @Test
    void sigint_during_the_demo_writes_what_ran_stops_the_service_and_exits_130() throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        assertThat(ServiceProcess.Jars.under(root).missing()).as("jars the test needs").isNull();
        Path out = dir.resolve("out");
        Path console = dir.resolve("console.txt");
        Process child = ChildCli.start(console, root, "demo", "--duration", "30s", "--rate", "100", "--warmup", "50",
                "--out", out.toString());
        long servicePid;
        try {
            Path firstRun = out.resolve("runs").resolve("closed-1");
            await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(50)).until(() -> !child.isAlive()
                    || Files.readString(console).contains("running closed-1") && Files.isDirectory(firstRun)
                    && Files.list(firstRun).findAny().isPresent());
            String started = Files.readString(console);
            assertThat(child.isAlive()).as("the demo still runs; console: %s", started).isTrue();
            Matcher pid = SERVICE_PID.matcher(started);
            assertThat(pid.find()).as(started).isTrue();
            servicePid = Long.parseLong(pid.group(1));
            ChildCli.interrupt(child);
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("exited; console: %s", Files.readString(console))
                    .isTrue();
        } finally {
            ChildCli.destroyTree(child);
        }
        String printed = Files.readString(console);
        assertThat(child.exitValue()).as("the exit status of a SIGINT; console: %s", printed).isEqualTo(130);
        assertThat(printed).contains("stopping: no new requests").doesNotContain("running paced-");
        assertThat(ResultsSchema.problems(out.resolve("results.json"))).as(printed).isEmpty();
        assertThat(Files.readString(out.resolve("results.json"))).contains("\"interrupted\" : true");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> ProcessHandle.of(servicePid).map(p -> !p.isAlive()).orElse(true));
    }
}
