package io.loadsmith.tester.report;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole way: a simulated run, its results.json, the reader, the report. */
class SimulatedRunReportTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void a_simulated_run_reads_back_as_it_was_written_and_its_report_shows_it() throws IOException {
        Simulation.SimulatedTarget target = new Simulation.SimulatedTarget(1, ServiceTime.constant(10 * MS),
                StallPlan.explicit(List.of(new PlannedStall(0, S, 500 * MS)), StallKind.BLOCK));
        RunResult paced = Simulation.run(TesterSpec.paced(2, 50 * MS).duration(3 * S).objective(20 * MS).seed(1).name("paced"),
                target, null, dir);
        ResultsFile written = ResultsFile.of(List.of(paced))
                .withSlos(List.of(new ResultsFile.SloResult("p99 < 500ms", paced.latencyMs().corrected().p99(), null, false)));

        ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), written);
        ResultsFile read = ResultsReader.read(dir.resolve(ResultsWriter.FILE_NAME));
        String page = Files.readString(ReportWriter.write(dir));

        assertThat(read).isEqualTo(written);
        assertThat(read.runs().get(0).counts().sent()).isEqualTo(120);
        assertThat(page).contains("<h1>paced</h1>", "<td class=\"kind\">estimated (interval 50 ms)</td>",
                "<code>p99 &lt; 500ms</code>", "id=\"chart-spectrum\"", "id=\"chart-timeline-0\"");
    }
}
