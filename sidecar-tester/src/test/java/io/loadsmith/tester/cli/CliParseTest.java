package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** Parses command lines without running them. */
class CliParseTest {

    private static ParseResult parse(String... args) {
        return Main.commandLine().parseArgs(args);
    }

    @Test
    void run_takes_a_file_an_out_folder_and_repeated_overrides() {
        ParseResult result = parse("run", "score.yaml", "--out", "results/x", "--set", "load.rate=800", "--set",
                "load.duration=1m");
        RunCommand run = (RunCommand) result.subcommand().commandSpec().userObject();
        assertThat(run.file).isEqualTo(Path.of("score.yaml"));
        assertThat(run.out).isEqualTo(Path.of("results/x"));
        assertThat(run.overrides).containsExactly("load.rate=800", "load.duration=1m");
        assertThat(run.progress).isEqualTo("auto");
    }

    @Test
    void run_without_out_leaves_the_default_folder_to_the_run() {
        RunCommand run = (RunCommand) parse("run", "a.yaml").subcommand().commandSpec().userObject();
        assertThat(run.out).isNull();
        assertThat(run.overrides).isEmpty();
    }

    @Test
    void admin_commands_share_the_admin_and_token_options() {
        ArmCommand arm = (ArmCommand) parse("arm", "--admin", "http://127.0.0.1:7070", "--token-file", "t.txt",
                "--seed", "7", "--stall", "500ms:300ms").subcommand().commandSpec().userObject();
        assertThat(arm.admin.admin).isEqualTo(URI.create("http://127.0.0.1:7070"));
        assertThat(arm.admin.tokenFile).isEqualTo(Path.of("t.txt"));
        assertThat(arm.seed).isEqualTo(7);
        assertThat(arm.stalls).containsExactly("500ms:300ms");
        assertThat(arm.meanInterval).isEqualTo("4s");
        assertThat(arm.kind).isEqualTo("block");
        StallsCommand stalls = (StallsCommand) parse("stalls", "--admin", "http://h:1", "--run-id", "3")
                .subcommand().commandSpec().userObject();
        assertThat(stalls.runId).isEqualTo("3");
        ClockCommand clock = (ClockCommand) parse("clock", "--admin", "http://h:1").subcommand().commandSpec().userObject();
        assertThat(clock.probes).isEqualTo(5);
        assertThat(parse("disarm", "--admin", "http://h:1").subcommand().commandSpec().name()).isEqualTo("disarm");
    }

    @Test
    void the_token_is_the_first_line_of_the_token_file_and_an_empty_one_is_bad_input_naming_it(@TempDir Path dir)
            throws IOException {
        Path token = Files.writeString(dir.resolve("token"), "  abc \nignored\n");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");
        ClockCommand good = (ClockCommand) parse("clock", "--admin", "http://h:1", "--token-file", token.toString())
                .subcommand().commandSpec().userObject();
        ClockCommand bad = (ClockCommand) parse("clock", "--admin", "http://h:1", "--token-file", empty.toString())
                .subcommand().commandSpec().userObject();

        assertThat(good.admin.token()).isEqualTo("abc");
        assertThatThrownBy(() -> bad.admin.token()).isInstanceOf(BadInputException.class)
                .hasMessage("--token-file " + empty + ": the first line is empty (it must hold the token)");
    }

    @Test
    void report_takes_a_folder() {
        ReportCommand report = (ReportCommand) parse("report", "results/x").subcommand().commandSpec().userObject();
        assertThat(report.dir).isEqualTo(Path.of("results/x"));
    }

    @Test
    void a_missing_admin_option_is_bad_input_with_exit_code_2() {
        CommandLine cmd = Main.commandLine();
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err));
        assertThat(cmd.execute("stalls")).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("Missing required option: '--admin=URL'");
    }

    @Test
    void every_command_has_help_with_examples() {
        for (String command : List.of("run", "report", "arm", "disarm", "stalls", "clock")) {
            CommandLine cmd = Main.commandLine();
            StringWriter out = new StringWriter();
            cmd.setOut(new PrintWriter(out));
            assertThat(cmd.execute(command, "--help")).isEqualTo(ExitCodes.OK);
            assertThat(out.toString()).as(command).contains("Usage: loadsmith " + command).contains("Example");
        }
    }

    @Test
    void exit_codes_are_the_documented_numbers() {
        assertThat(List.of(ExitCodes.OK, ExitCodes.SLO_FAILED, ExitCodes.BAD_INPUT, ExitCodes.UNREACHABLE))
                .containsExactly(0, 1, 2, 3);
    }
}
