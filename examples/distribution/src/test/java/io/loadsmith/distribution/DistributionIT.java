package io.loadsmith.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive that {@code ./mvnw package} makes, unpacked into an empty folder and run from another
 * one with a PATH that holds only {@code java} and the few tools the launcher uses ({@code sh}, {@code sed},
 * {@code head}, {@code ls}, {@code dirname}): no Maven, no source tree. The agent is attached to the
 * archive's service both ways: at start (the demo) and by process id.
 */
class DistributionIT {

    private static final String VERSION = System.getProperty("loadsmith.version");
    private static final List<String> TOOLS = List.of("sh", "sed", "head", "ls", "dirname");

    @TempDir
    static Path scratch;

    static Path home;
    static Path work;
    static Path tools;

    @BeforeAll
    static void unpack_the_archive_into_an_empty_folder() throws Exception {
        Path archive = Path.of(System.getProperty("loadsmith.archive"));
        Path unpacked = Files.createDirectories(scratch.resolve("unpacked"));
        Process tar = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString())
                .redirectErrorStream(true).start();
        assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).as(new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        home = unpacked.resolve("loadsmith-" + VERSION);
        work = Files.createDirectories(scratch.resolve("work"));
        tools = Files.createDirectories(scratch.resolve("path"));
        Files.createSymbolicLink(tools.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        for (String tool : TOOLS) {
            Files.createSymbolicLink(tools.resolve(tool), which(tool));
        }
    }

    @Test
    void the_archive_holds_the_launcher_the_jars_the_examples_and_the_docs() {
        assertThat(home.resolve("bin/loadsmith")).isExecutable();
        assertThat(home.resolve("lib/loadsmith.jar")).isRegularFile();
        assertThat(home.resolve("agent/loadsmith-agent.jar")).isRegularFile();
        assertThat(home.resolve("service/scoring-service.jar")).isRegularFile();
        assertThat(home.resolve("examples/scenarios/sim-open-seeded-stalls.yaml")).isRegularFile();
        assertThat(home.resolve("docs/cli.md")).isRegularFile();
        assertThat(home.resolve("docs/schemas/scenario.schema.json")).isRegularFile();
        assertThat(home.resolve("docs/schemas/experiment.schema.json")).isRegularFile();
    }

    @Test
    void version_names_the_version_and_the_commit() throws Exception {
        Result result = loadsmith("--version");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).matches("loadsmith " + VERSION.replace(".", "\\.") + " \\(commit ([0-9a-f]{7,}|unknown)\\)\\n");
    }

    @Test
    void the_agent_jar_says_its_version() throws Exception {
        Result result = run(List.of(tools.resolve("java").toString(), "-jar", home.resolve("agent/loadsmith-agent.jar").toString(),
                "--version"), 60);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).startsWith("loadsmith-agent " + VERSION + " (commit ");
    }

    @Test
    void the_simulated_scenario_runs_from_the_archive() throws Exception {
        Result result = loadsmith("run", home.resolve("examples/scenarios/sim-open-seeded-stalls.yaml").toString(),
                "--set", "load.duration=5s", "--out", "results/sim");

        assertThat(result.exitCode()).as(result.output()).isZero();
        JsonNode results = new ObjectMapper().readTree(work.resolve("results/sim/results.json").toFile());
        assertThat(results.path("runs")).hasSize(1);
        assertThat(results.path("versions").path("tester").asText()).isEqualTo(VERSION);
    }

    @Test
    void a_short_demo_runs_from_the_archive_with_the_agent_attached() throws Exception {
        Result result = loadsmith("demo", "--duration", "3s", "--rate", "100", "--warmup", "50", "--out", "results/demo");

        assertThat(result.exitCode()).as(result.output()).isZero();
        JsonNode results = new ObjectMapper().readTree(work.resolve("results/demo/results.json").toFile());
        assertThat(results.path("runs")).hasSize(3);
        assertThat(results.path("versions").path("agent").asText()).isEqualTo(VERSION);
    }

    @Test
    void the_agent_attaches_to_a_running_service_and_its_health_names_the_version() throws Exception {
        Path log = Files.createTempFile(scratch, "service", ".log");
        Process service = new ProcessBuilder(tools.resolve("java").toString(), "-jar",
                home.resolve("service/scoring-service.jar").toString(), "--port", "0", "--threads", "2")
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(log).contains("listening on") && System.nanoTime() < deadlineNanos && service.isAlive()) {
                service.waitFor(100, TimeUnit.MILLISECONDS);
            }
            assertThat(Files.readString(log)).contains("listening on");

            Result attached = run(List.of(tools.resolve("java").toString(), "-jar",
                    home.resolve("agent/loadsmith-agent.jar").toString(), "attach", Long.toString(service.pid()),
                    "admin=127.0.0.1:0"), 120);

            assertThat(attached.exitCode()).as(attached.output()).isZero();
            Matcher admin = Pattern.compile("admin API at (http://\\S+)").matcher(attached.output());
            assertThat(admin.find()).as(attached.output()).isTrue();
            HttpResponse<String> health = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(admin.group(1) + "/health")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(new ObjectMapper().readTree(health.body()).path("version").asText()).isEqualTo(VERSION);
        } finally {
            service.destroy();
            service.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static Result loadsmith(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(home.resolve("bin/loadsmith").toString());
        command.addAll(List.of(args));
        return run(command, 300);
    }

    /** Runs a command in the work folder with only {@link #tools} on the PATH and no JAVA_HOME. */
    private static Result run(List<String> command, long timeoutSeconds) throws Exception {
        Path log = Files.createTempFile(scratch, "output", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.clear();
        env.put("PATH", tools.toString());
        env.put("HOME", work.toString());
        Process process = builder.start();
        boolean finished = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        assertThat(finished).as("finished within " + timeoutSeconds + " s: " + output).isTrue();
        return new Result(process.exitValue(), output);
    }

    private static Path which(String tool) throws IOException {
        for (String dir : List.of("/bin", "/usr/bin")) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate.toRealPath();
            }
        }
        throw new IOException(tool + " is in neither /bin nor /usr/bin");
    }

    private record Result(int exitCode, String output) {
    }
}
