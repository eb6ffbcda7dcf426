package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code loadsmith run} does with a scenario's {@code stalls:} block, on the path {@code demo} and
 * {@code experiment} take: the agent to arm ({@link StalledRun} probes its clock, arms it at the counted
 * start with the scenario's seed, fetches the run's stalls, disarms and aligns), the aligned results.json
 * ({@link AlignedResults}), and the per-stall counts on the console ({@link PerStallTable}).
 */
public final class ScenarioStalls {

    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ScenarioStalls() {
    }

    /** The agent of {@code scenario.stalls()} and its seeded plan (the horizon is the counted run). */
    static AgentStalls agent(Scenario scenario) {
        Scenario.AgentStalls stalls = scenario.stalls();
        String token = null;
        if (stalls.tokenFile() != null) {
            try {
                token = TokenFile.read(stalls.tokenFile());
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(scenario.file().getFileName() + ": stalls.token_file: " + e.getMessage());
            }
        }
        SeededPlanSpec plan = stalls.plan().seededSpec().orElseThrow();
        return new AgentStalls(AdminClient.of(stalls.admin(), token), plan.seed(), plan.meanIntervalNanos(),
                plan.durationNanos(), plan.minGapNanos(), stalls.plan().kind());
    }

    /** The bins of the stall-aligned plot: sized to the scenario's stall length. */
    static AlignedBins bins(Scenario scenario) {
        return AlignedBins.forStall(scenario.stalls().plan().seededSpec().orElseThrow().durationNanos());
    }

    /** Writes dir/results.json with the run's stalls[], stall_summary, alignment and the SLO verdicts. */
    static void writeResults(Path dir, Scenario scenario, StalledRun.Outcome outcome, List<ResultsFile.SloResult> slos)
            throws IOException {
        ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME),
                AlignedResults.build(dir, List.of(entry(dir, scenario, outcome)), slos));
    }

    /** Writes dir/agent-stalls.json: the run's stalls as the agent answered {@code GET /stalls}. */
    static void writeAgentStalls(Path dir, AgentStalls agent, StalledRun.Outcome outcome) throws IOException {
        JsonNode stalls = agent.admin().stallsJson(outcome.armed().runId(), 0);
        AtomicFiles.write(dir.resolve("agent-stalls.json"), out -> PRETTY.writeValue(out, stalls));
    }

    /** Prints the requests sent inside each stall window (the demo's table, one column). */
    public static void printPerStall(PrintWriter out, Path dir, Scenario scenario, StalledRun.Outcome outcome) {
        PerStallTable.print(out, List.of(entry(dir, scenario, outcome)));
    }

    private static AlignedResults.Entry entry(Path dir, Scenario scenario, StalledRun.Outcome outcome) {
        return new AlignedResults.Entry(dir, outcome, scenario.name());
    }
}
