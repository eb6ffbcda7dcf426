package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.stall.BuildInfo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code loadsmith --version} and {@code loadsmith completion}: what they print, and that bash and zsh load the scripts. */
class CompletionAndVersionTest {

    private record Printed(int exitCode, String out, String err) {
    }

    private static Printed execute(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exitCode = cmd.execute(args);
        return new Printed(exitCode, out.toString(), err.toString());
    }

    @Test
    void version_prints_the_build_version_and_commit() {
        Printed printed = execute("--version");

        assertThat(printed.exitCode()).isZero();
        assertThat(printed.out()).isEqualTo("loadsmith " + BuildInfo.current().describe() + System.lineSeparator());
        assertThat(BuildInfo.current().version()).isNotEqualTo(BuildInfo.UNKNOWN).doesNotStartWith("${");
    }

    @Test
    void an_unknown_shell_is_bad_input() {
        Printed printed = execute("completion", "fish");

        assertThat(printed.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(printed.err()).contains("bash", "zsh");
    }

    @Test
    void the_bash_script_parses_and_registers_a_completion_for_loadsmith(@TempDir Path dir) throws Exception {
        Printed printed = execute("completion", "bash");
        assertThat(printed.exitCode()).isZero();
        Path script = Files.writeString(dir.resolve("loadsmith.bash"), printed.out());

        assertThat(run("bash", "-n", script.toString())).isEqualTo("");
        assertThat(run("bash", "-c", "source " + script + " && complete -p loadsmith"))
                .isEqualTo("complete -o default -F _complete_loadsmith loadsmith\n");
    }

    @Test
    void the_bash_script_completes_subcommands_and_their_options() {
        String script = execute("completion", "bash").out();

        assertThat(script).contains("demo", "run", "experiment", "report", "arm", "disarm", "stalls", "clock",
                "completion", "--duration", "--rate", "--set", "--admin", "--token-file");
    }

    @Test
    void the_zsh_script_registers_a_completion_for_loadsmith_in_zsh(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("loadsmith.zsh"), execute("completion", "zsh").out());
        Assumptions.assumeTrue(onPath("zsh"), "zsh is not installed (.ci/install-tools installs it)");

        assertThat(run("zsh", "-f", "-c", "source " + script + " && print -r -- ${_comps[loadsmith]}"))
                .isEqualTo("_bash_complete -F _complete_loadsmith -o default\n");
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv("PATH").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
