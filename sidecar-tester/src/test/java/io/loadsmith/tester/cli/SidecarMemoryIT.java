package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.client.jetty.HelloServer;
import io.loadsmith.tester.record.RequestLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The tester's memory as a sidecar container has it (docs/scale-out.md, "Sizing the tester's container"),
 * through the launcher ({@code bin/loadsmith}, with the JVM settings it picks, on the jar the build made),
 * against a loopback Jetty handler this test starts: a 5 s open loop at 500/s on 16 connections.
 * <ul>
 *   <li>In a real cgroup whose memory limit is the tester container's {@code resources.limits.memory} in
 *       examples/kubernetes/sidecar-job.yaml, read from the manifest: exit 0, report.html written, no OOM kill,
 *       and the group's peak under the limit. Skipped, saying why, where no cgroup can be made (not root, no
 *       cgroup fs, a read-only one).</li>
 *   <li>With a heap too small for the report ({@code LOADSMITH_JAVA_OPTS="-Xms8m -Xmx19m"}: the run fits, the report's
 *       charts and page do not; measured, docs/cli.md): exit 4 and one line on stderr naming what was written,
 *       what was not and the command that finishes it; nothing lost: results.json and requests.bin whole
 *       ({@code loadsmith verify} agrees with every figure), and {@code loadsmith report DIR} with the
 *       launcher's memory writes report.html. No cgroup needed: it runs everywhere.</li>
 * </ul>
 */
class SidecarMemoryIT {

    /**
     * A heap in which the run above fits and its report does not, the middle of what was measured here
     * (2026-12-07, JDK 17, bin/jvm.options): at 12m and 14m the run itself ran out, at 16m to 22m the report
     * did, at 24m both fitted. {@code -Xms8m} first: bin/jvm.options starts the heap at 32m, above this maximum.
     */
    static final String TOO_SMALL_FOR_THE_REPORT = "-Xms8m -Xmx19m";

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path MANIFEST = ROOT.resolve("examples/kubernetes/sidecar-job.yaml");

    @TempDir
    Path dir;

    private Server server;
    private int port;

    @BeforeEach
    void startServer() throws Exception {
        server = HelloServer.start(0);
        port = HelloServer.port(server);
    }

    @AfterEach
    void stopServer() throws Exception {
        server.stop();
    }

    @Test
    void under_the_sidecar_manifests_memory_limit_a_run_exits_0_writes_its_report_and_stays_under_the_limit()
            throws Exception {
        Optional<String> why = Cgroup.unavailable();
        Assumptions.assumeTrue(why.isEmpty(), () -> "no cgroup for the tester here: " + why.orElseThrow());
        long limitBytes = testerMemoryLimitBytes(MANIFEST);
        Path out = dir.resolve("out");
        Path console = dir.resolve("console.txt");

        long peakBytes;
        long oomKills;
        int exit;
        try (Cgroup group = Cgroup.create("loadsmith-sidecar-it-" + ProcessHandle.current().pid(), limitBytes)) {
            exit = run(group.wrap(launcher("run", scenario().toString(), "--out", out.toString(), "--progress", "none")),
                    Map.of(), console);
            peakBytes = group.peakBytes();
            oomKills = group.oomKills();
        }

        String printed = Files.readString(console);
        System.out.printf("SidecarMemoryIT: tester in %d MiB (%s): exit %d, cgroup peak %.1f MiB, OOM kills %d%n",
                limitBytes >> 20, ROOT.relativize(MANIFEST), exit, peakBytes / 1048576.0, oomKills);
        assertThat(oomKills).as("OOM kills in %d MiB; console: %s", limitBytes >> 20, printed).isZero();
        assertThat(exit).as(printed).isEqualTo(ExitCodes.OK);
        assertThat(out.resolve("report.html")).as(printed).isRegularFile();
        assertThat(peakBytes).as("the group's peak against its limit").isLessThan(limitBytes);
    }

    @Test
    void a_heap_too_small_for_the_report_loses_nothing_says_so_exits_4_and_loadsmith_report_finishes_it()
            throws Exception {
        Path out = dir.resolve("out");
        Path console = dir.resolve("console.txt");

        int exit = run(launcher("run", scenario().toString(), "--out", out.toString(), "--progress", "none"),
                Map.of("LOADSMITH_JAVA_OPTS", TOO_SMALL_FOR_THE_REPORT), console);

        String printed = Files.readString(console);
        assertThat(exit).as("exit with %s; console: %s", TOO_SMALL_FOR_THE_REPORT, printed).isEqualTo(ExitCodes.OUT_OF_MEMORY);
        assertThat(printed).contains("loadsmith: out of memory (Java heap, at most ")
                .contains("while writing the report of " + out + ", after its results: written and whole: results.json, "
                        + "latency.hlog, requests.bin, scenario.yaml; not written: report.html")
                .contains("nothing measured is lost: finish the report with more memory: LOADSMITH_JAVA_OPTS=-Xmx")
                .contains("m loadsmith report " + out)
                .doesNotContain("Exception in thread");
        assertThat(out.resolve("report.html")).doesNotExist();
        JsonNode results = new ObjectMapper().readTree(out.resolve("results.json").toFile());
        long completed = results.path("runs").path(0).path("counts").path("completed").asLong();
        assertThat(completed).isBetween(2_400L, 2_600L);
        assertThat(Files.size(out.resolve(RequestLog.FILE_NAME))).isPositive();

        Path verified = dir.resolve("verify.txt");
        assertThat(run(launcher("verify", out.toString()), Map.of(), verified)).as(Files.readString(verified)).isZero();
        Path reported = dir.resolve("report.txt");
        assertThat(run(launcher("report", out.toString()), Map.of(), reported)).as(Files.readString(reported)).isZero();
        assertThat(out.resolve("report.html")).isRegularFile();
    }

    private Path scenario() throws IOException {
        Path file = dir.resolve("sidecar.yaml");
        Files.writeString(file, """
                name: sidecar
                target: {url: "http://127.0.0.1:%d/"}
                load: {model: open, arrivals: constant, rate: 500, duration: 5s, connections: 16, grace: 2s, seed: 1}
                """.formatted(port));
        return file;
    }

    /** {@code bin/loadsmith args...} on the jar the build made (the launcher would build a missing one). */
    private static List<String> launcher(String... args) {
        Path jar = ROOT.resolve("sidecar-tester/target/loadsmith.jar");
        assertThat(jar).as("the jar bin/loadsmith runs (failsafe runs after package)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(ROOT.resolve("bin/loadsmith").toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** Runs {@code command} with this JVM's java as the launcher's, both streams into {@code console}; its exit code. */
    private static int run(List<String> command, Map<String, String> env, Path console) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile());
        builder.environment().remove("LOADSMITH_JAVA_OPTS"); // the launcher's own settings, unless the test gives some
        builder.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        builder.environment().putAll(env);
        Process child = builder.start();
        try {
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("%s exited within 60 s", command).isTrue();
            return child.exitValue();
        } finally {
            ChildCli.destroyTree(child);
        }
    }

    /** The tester container's {@code resources.limits.memory} in a Job manifest such as sidecar-job.yaml, in bytes. */
    @SuppressWarnings("unchecked")
    static long testerMemoryLimitBytes(Path manifest) throws IOException {
        Map<String, Object> job = (Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(manifest));
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) job.get("spec"))
                .get("template")).get("spec");
        for (Object c : (List<Object>) pod.get("containers")) {
            Map<String, Object> container = (Map<String, Object>) c;
            if ("tester".equals(container.get("name"))) {
                Object memory = ((Map<String, Object>) ((Map<String, Object>) container.get("resources")).get("limits"))
                        .get("memory");
                return quantityBytes(String.valueOf(memory));
            }
        }
        throw new IllegalStateException(manifest + ": no container named tester");
    }

    /** A Kubernetes memory quantity in bytes: {@code 96Mi}, {@code 1Gi}, {@code 128M}, {@code 100000000}. */
    static long quantityBytes(String quantity) {
        String[][] units = {{"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
                {"k", "1000"}, {"K", "1000"}, {"M", "1000000"}, {"G", "1000000000"}, {"T", "1000000000000"}};
        for (String[] unit : units) {
            if (quantity.endsWith(unit[0])) {
                return Math.round(Double.parseDouble(quantity.substring(0, quantity.length() - unit[0].length()))
                        * Long.parseLong(unit[1]));
            }
        }
        return Math.round(Double.parseDouble(quantity));
    }
}
