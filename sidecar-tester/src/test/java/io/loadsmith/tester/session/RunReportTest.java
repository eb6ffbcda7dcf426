package io.loadsmith.tester.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loadsmith.tester.result.InvalidResultsOnPurpose;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunReportTest {

    @TempDir
    Path dir;

    private final StringWriter console = new StringWriter();

    @Test
    @InvalidResultsOnPurpose // the results' files are placeholders: only their names matter here
    void a_report_that_runs_out_of_heap_names_what_was_written_what_was_not_and_the_command_that_finishes_it()
            throws Exception {
        for (String name : new String[] {"results.json", "latency.hlog", "requests.bin", "scenario.yaml", "spectrum.png",
                "spectrum.svg"}) {
            Files.writeString(dir.resolve(name), "x");
        }

        assertThatThrownBy(() -> RunReport.write(dir, new PrintWriter(console), true, d -> {
            throw new OutOfMemoryError("Java heap space");
        })).isInstanceOf(ReportOutOfMemoryException.class)
                .hasCauseInstanceOf(OutOfMemoryError.class)
                .hasMessageContaining(" while writing the report of " + dir + ", after its results: written and whole: "
                        + "results.json, latency.hlog, requests.bin, scenario.yaml; not written: report.html (charts "
                        + "written: spectrum.png, spectrum.svg); nothing measured is lost: finish the report with more "
                        + "memory: LOADSMITH_JAVA_OPTS=-Xmx")
                .hasMessageEndingWith("m loadsmith report " + dir);
        assertThat(console.toString()).isEqualTo(System.lineSeparator() + "wrote " + dir.resolve("results.json")
                + System.lineSeparator());
    }

    @Test
    void the_message_gives_the_heap_that_ran_out_and_twice_it_as_the_remedy() {
        assertThat(ReportOutOfMemoryException.message(dir, 24L << 20))
                .startsWith("out of memory (Java heap, at most 24 MiB) while writing the report of " + dir
                        + ", after its results: no results file is there; not written: report.html and its charts;")
                .endsWith("LOADSMITH_JAVA_OPTS=-Xmx64m loadsmith report " + dir);
        assertThat(ReportOutOfMemoryException.suggestedHeapMib(24)).isEqualTo(64);
        assertThat(ReportOutOfMemoryException.suggestedHeapMib(48)).isEqualTo(96);
        assertThat(ReportOutOfMemoryException.suggestedHeapMib(100)).isEqualTo(224);
    }

    @Test
    void a_report_that_fails_otherwise_stays_a_warning() {
        RunReport.write(dir, new PrintWriter(console), true, d -> {
            throw new IllegalStateException("no fonts");
        });

        assertThat(console.toString()).contains("warning: the report failed (no fonts); once fixed: loadsmith report " + dir);
    }
}
