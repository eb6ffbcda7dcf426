package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.experiment.ServiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code loadsmith verify DIR}: its arguments, its help, and a simulated run's folder (VerifyIT: a real one). */
class VerifyCommandTest {

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
    void every_figure_of_a_simulated_run_agrees(@TempDir Path dir) {
        Path scenario = ServiceProcess.findRoot(Path.of("")).resolve("examples/scenarios/sim-coordinated-omission.yaml");
        Execution ran = execute("run", scenario.toString(), "--out", dir.resolve("out").toString(), "--progress",
                "none", "--set", "load.duration=12s");
        Execution verified = execute("verify", dir.resolve("out").toString());

        assertThat(ran.exit).as(ran.err).isIn(ExitCodes.OK, ExitCodes.SLO_FAILED);
        assertThat(verified.exit).as(verified.out + verified.err).isEqualTo(ExitCodes.OK);
        assertThat(verified.out).contains("runs[0].latency_ms.corrected.p99 ").containsPattern("all \\d+ figures agree");
    }

    private record Execution(int exit, String out, String err) {
    }

    private static Execution execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return new Execution(cmd.execute(args), out.toString(), err.toString());
    }
}
