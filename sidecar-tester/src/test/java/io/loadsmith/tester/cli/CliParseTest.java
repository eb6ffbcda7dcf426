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
    void arm_takes_a_replay_with_its_range_and_refuses_its_options_without_it_before_calling_the_agent(
            @TempDir Path dir) {
        ArmCommand arm = (ArmCommand) parse("arm", "--admin", "http://h:1", "--replay", "p.json", "--from", "10m",
                "--to", "20m", "--min-duration", "5ms", "--speed", "2").subcommand().commandSpec().userObject();
        assertThat(arm.replay).isEqualTo(Path.of("p.json"));
        assertThat(List.of(arm.from, arm.to, arm.minDuration)).containsExactly("10m", "20m", "5ms");
        assertThat(arm.speed).isEqualTo(2.0);

        Path missing = dir.resolve("none.json");
        assertThat(failure("arm", "--admin", "http://127.0.0.1:1", "--speed", "2"))
                .isEqualTo("loadsmith: --speed: is only for --replay (a pause profile to replay)");
        assertThat(failure("arm", "--admin", "http://127.0.0.1:1", "--replay", missing.toString(), "--seed", "3"))
                .isEqualTo("loadsmith: --seed: is for a seeded plan, and --replay replays a profile instead: give one of them");
        assertThat(failure("arm", "--admin", "http://127.0.0.1:1", "--replay", missing.toString(), "--kind", "stop"))
                .isEqualTo("loadsmith: --kind must be block, spin or freeze (got stop)");
        assertThat(failure("arm", "--admin", "http://127.0.0.1:1", "--replay", missing.toString()))
                .isEqualTo("loadsmith: " + missing + ": no such file");
    }

    /** The one line a command that fails with exit 2 writes. */
    private static String failure(String... args) {
        CommandLine cmd = Main.commandLine();
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        assertThat(cmd.execute(args)).as(String.join(" ", args)).isEqualTo(ExitCodes.BAD_INPUT);
        return err.toString().strip();
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
