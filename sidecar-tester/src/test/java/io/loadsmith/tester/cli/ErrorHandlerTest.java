package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.tester.session.ReportOutOfMemoryException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ErrorHandlerTest {

    @Test
    void a_report_that_ran_out_of_heap_is_exit_4_with_its_message_on_one_line() {
        Path dir = Path.of("results", "x");
        ReportOutOfMemoryException ex = ReportOutOfMemoryException.of(dir, new OutOfMemoryError("Java heap space"), 24L << 20);
        StringWriter err = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setErr(new PrintWriter(err));

        int code = new ErrorHandler().handleExecutionException(ex, cmd, null);

        assertThat(code).isEqualTo(ExitCodes.OUT_OF_MEMORY).isEqualTo(4);
        assertThat(err.toString().strip()).startsWith("loadsmith: out of memory (Java heap, at most 24 MiB) while writing "
                + "the report of " + dir).endsWith("LOADSMITH_JAVA_OPTS=-Xmx64m loadsmith report " + dir).doesNotContain("\n");
    }

    @Test
    void a_heap_that_ran_out_anywhere_else_says_the_command_did_not_finish_and_how_much_to_give() {
        assertThat(Main.outOfMemory(48L << 20, "loadsmith-loop-1-1")).startsWith(
                "loadsmith: out of memory (Java heap, at most 48 MiB, in thread loadsmith-loop-1-1): the command did not finish");
        assertThat(Main.outOfMemory(48L << 20, null)).isEqualTo("loadsmith: out of memory (Java heap, at most 48 MiB): the command"
                + " did not finish (a run's folder without results.json holds a run that did not finish: its requests.bin"
                + " and latency.hlog stop where it was); give the JVM more memory: LOADSMITH_JAVA_OPTS=-Xmx96m");
    }
}
