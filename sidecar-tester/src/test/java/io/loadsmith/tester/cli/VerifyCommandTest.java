package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.result.InvalidResultsOnPurpose;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code loadsmith verify DIR}: its arguments, its help, and the folder of a run on the simulator (VerifyIT: a real
 * one with stalls), with pause rows added as the agent's pauses would make them.
 */
class VerifyCommandTest {

    private static final long S = 1_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;
    static Path simulated;

    @BeforeAll
    static void a_simulated_run() {
        Path scenario = ServiceProcess.findRoot(Path.of("")).resolve("examples/scenarios/sim-coordinated-omission.yaml");
        simulated = shared.resolve("out");
        Execution ran = execute("run", scenario.toString(), "--out", simulated.toString(), "--progress", "none",
                "--set", "load.duration=12s");
        assertThat(ran.exit).as(ran.err).isIn(ExitCodes.OK, ExitCodes.SLO_FAILED);
    }

    @Test
    void verify_takes_a_folder_and_has_help_with_an_example() {
        VerifyCommand verify = (VerifyCommand) Main.commandLine().parseArgs("verify", "results/x").subcommand()
                .commandSpec().userObject();
        Execution help = execute("verify", "--help");

        assertThat(verify.dir).isEqualTo(Path.of("results/x"));
        assertThat(help.exit).isEqualTo(ExitCodes.OK);
        assertThat(help.out).contains("Usage: loadsmith verify").contains("Example").contains("Exit codes: 0");
    }

    @Test
    void the_completion_script_knows_verify() {
        assertThat(execute("completion", "bash").out).contains("verify");
    }

    @Test
    void a_folder_without_results_is_bad_input_naming_the_file(@TempDir Path dir) {
        Execution verified = execute("verify", dir.toString());

        assertThat(verified.exit).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(verified.err).contains(dir.resolve("results.json") + ": no such file");
    }

    @Test
    void every_figure_of_a_simulated_run_agrees() {
        Execution verified = execute("verify", simulated.toString());

        assertThat(verified.exit).as(verified.out + verified.err).isEqualTo(ExitCodes.OK);
        assertThat(verified.out).contains("runs[0].latency_ms.corrected.p99 ").contains("no pauses to check")
                .containsPattern("all \\d+ figures agree");
    }

    @Test
    @InvalidResultsOnPurpose
    void pause_rows_are_checked_against_the_agents_pauses_and_an_edited_one_is_named(@TempDir Path dir)
            throws IOException {
        Path copy = copy(simulated, dir.resolve("paused"));
        ObjectNode results = (ObjectNode) JSON.readTree(copy.resolve("results.json").toFile());
        ObjectNode run = (ObjectNode) results.withArray("runs").get(0);
        long start = run.get("start_ns").asLong();
        // one pause a second before the run: it meets no request and is not met
        ObjectNode pause = run.putArray("service_pauses").addObject().put("index", 0).put("source", "safepoint")
                .put("label", "G1 Young").put("start_ns", start - 2 * S).put("end_ns", start - S).put("sent_during", 0)
                .put("intended_during", 0).put("in_flight_at_start", 0).put("overlapping", 0).put("met", false);
        run.putObject("pause_summary").put("pauses", 1).put("pauses_met", 0).put("sent_during_total", 0)
                .put("overlapping", 0).put("overlapping_share", 0.0).put("paused_ms", 0.0);
        JSON.writeValue(copy.resolve("results.json").toFile(), results);
        ObjectNode agent = JSON.createObjectNode().put("run_id", "1");
        agent.putArray("pauses").addObject().put("index", 0).put("source", "safepoint").put("label", "G1 Young")
                .put("start_ns", start - 2 * S).put("end_ns", start - S);
        JSON.writeValue(copy.resolve("agent-pauses.json").toFile(), agent);

        Execution agreed = execute("verify", copy.toString());
        pause.put("sent_during", 1).put("label", "G1 Old");
        JSON.writeValue(copy.resolve("results.json").toFile(), results);
        Execution edited = execute("verify", copy.toString());
        Files.delete(copy.resolve("agent-pauses.json"));
        Execution missing = execute("verify", copy.toString());

        assertThat(agreed.exit).as(agreed.out + agreed.err).isEqualTo(ExitCodes.OK);
        assertThat(agreed.out).contains("runs[0].service_pauses[0].overlapping", "runs[0].pause_summary.pauses_met",
                "runs[0].pause_summary.overlapping_share").doesNotContain("no pauses to check");
        assertThat(edited.exit).isEqualTo(VerifyCommand.DISAGREES);
        assertThat(edited.out).contains("2 of ")
                .containsPattern("runs\\[0]\\.service_pauses\\[0]\\.sent_during +1 +0 +DISAGREES")
                .containsPattern("runs\\[0]\\.service_pauses\\[0]\\.label +G1 Old +G1 Young +DISAGREES");
        assertThat(missing.exit).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(missing.err).contains(copy.resolve("agent-pauses.json") + ": no such file");
    }

    /** Copies the files of a folder (not its subfolders) into a new one. */
    static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
        return to;
    }

    /** A command's exit code and what it printed. */
    record Execution(int exit, String out, String err) {
    }

    /** Runs loadsmith with {@code args} in this JVM. */
    static Execution execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Execution(cmd.execute(args), out.toString(), err.toString());
    }
}
