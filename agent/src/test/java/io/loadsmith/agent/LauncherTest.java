package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.stall.BuildInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LauncherTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Launcher.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void help_prints_every_option_and_exits_0() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("admin=HOST:PORT", "token=VALUE", "token-file=PATH", "token=random", "targets=auto|LIST",
                        "method=CLASS#METHOD", "log=LEVEL", "attach PID [OPTIONS]", "list");
    }

    @Test
    void version_prints_the_build_version_and_commit_and_exits_0() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("loadsmith-agent " + BuildInfo.current().describe() + System.lineSeparator());
    }

    @Test
    void attach_without_a_numeric_pid_exits_2_with_a_message() {
        assertThat(run("attach", "my-service")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .startsWith("attach: PID must be a process id, a number (got \"my-service\")");
    }

    @Test
    void attach_with_bad_options_exits_2_naming_the_option() {
        assertThat(run("attach", "42", "admin=nowhere")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("attach: option admin: expected HOST:PORT, e.g. admin=127.0.0.1:7070 (got \"nowhere\")" + System.lineSeparator());
    }

    @Test
    void an_unknown_command_exits_2() {
        assertThat(run("detach")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("unknown command \"detach\"");
    }
}
