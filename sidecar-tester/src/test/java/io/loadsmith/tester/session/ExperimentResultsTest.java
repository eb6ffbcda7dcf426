package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.ClockOffset;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.align.MissingStalls;
import io.loadsmith.tester.align.RunAlignment;
import io.loadsmith.tester.align.StallAlignment;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.report.ReportWriter;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An experiment's results.json assembled as {@link ExperimentRunner} assembles it, from simulated runs stalled
 * by the real seeded plan (the agent's part stood in for): written, read back equal, and drawn.
 */
class ExperimentResultsTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final Map<String, TesterSpec> ARMS = Map.of("open-200", TesterSpec.open(200), "closed-1",
            TesterSpec.closed(1));

    @TempDir
    Path out;

    private final Map<String, Map<Boolean, Map<Integer, RunResult>>> results = new LinkedHashMap<>();
    private final Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes = new LinkedHashMap<>();
    private final List<AlignedResults.Entry> entries = new ArrayList<>();

    @Test
    void an_experiment_with_stalls_reads_back_as_it_was_written_and_renders() throws IOException {
        ExperimentSpec spec = ExperimentSpec.parse(spec());
        List<List<String>> orders = new ArrayList<>();
        for (int round = 1; round <= 2; round++) {
            List<String> order = new ArrayList<>();
            for (String arm : List.of("open-200", "closed-1")) {
                for (boolean stall : List.of(true, false)) {
                    order.add(arm + (stall ? "/stall" : "/no-stall"));
                    run(arm, round, stall, round == 2 && arm.equals("closed-1") ? List.of(9) : List.of());
                }
            }
            orders.add(order);
        }
        ResultsFile written = AlignedResults.build(out, entries)
                .withExperiment(ExperimentAnalysis.experiment(spec, orders, results, outcomes, out));

        ResultsWriter.write(out.resolve(ResultsWriter.FILE_NAME), written);
        ResultsFile read = ResultsReader.read(out.resolve(ResultsWriter.FILE_NAME));
        String page = Files.readString(ReportWriter.write(out));

        assertThat(read).isEqualTo(written);
        Experiment experiment = read.experiment();
        assertThat(experiment.perArm()).extracting(Experiment.ArmRuns::arm, Experiment.ArmRuns::stall)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("open-200", true),
                        org.assertj.core.groups.Tuple.tuple("open-200", false),
                        org.assertj.core.groups.Tuple.tuple("closed-1", true),
                        org.assertj.core.groups.Tuple.tuple("closed-1", false));
        assertThat(experiment.pairs()).extracting(Experiment.Comparison::metric, Experiment.Comparison::stall)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("p99", true),
                        org.assertj.core.groups.Tuple.tuple("p99:service", true),
                        org.assertj.core.groups.Tuple.tuple("p99", false),
                        org.assertj.core.groups.Tuple.tuple("p99:service", false));
        assertThat(experiment.stallVsNoStall()).extracting(Experiment.Comparison::a, Experiment.Comparison::metric)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("open-200/stall", "p99"),
                        org.assertj.core.groups.Tuple.tuple("open-200/stall", "p99:service"),
                        org.assertj.core.groups.Tuple.tuple("closed-1/stall", "p99"),
                        org.assertj.core.groups.Tuple.tuple("closed-1/stall", "p99:service"));
        assertThat(experiment.windows().runs()).hasSize(4);
        assertThat(read.alignment().series()).extracting(s -> s.run()).containsExactly("open-200", "closed-1");
        RunResult closedStalled = read.runs().get(6);
        assertThat(closedStalled.name()).isEqualTo("closed-1 r2 stall");
        assertThat(closedStalled.dir()).isEqualTo("runs/r2-closed-1-stall");
        assertThat(closedStalled.requestsLog()).isEqualTo("runs/r2-closed-1-stall/requests.bin");
        assertThat(closedStalled.stallSummary().missing()).containsExactly(9);
        assertThat(closedStalled.warnings()).filteredOn(w -> w.startsWith("1 planned stall(s)")).hasSize(1);
        assertThat(closedStalled.stalls()).isNotEmpty().allMatch(s -> s.sentDuring() == 0);
        assertThat(read.runs().get(7).stallSummary()).isNull();
        assertThat(page).contains("id=\"chart-experiment-corrected\"", "id=\"chart-aligned\"", "<h3>Stalls on against off</h3>");
    }

    private Path spec() throws IOException {
        Path scenario = ServiceProcess.findRoot(Path.of("")).resolve("examples/scenarios/score-fixed-rate.yaml");
        return Files.writeString(out.resolve("experiment.yaml"), String.join("\n",
                "name: shape", "scenario: " + scenario, "rounds: 2", "duration: 2s", "seed: 1", "stall: both",
                "stalls: {admin: 'http://127.0.0.1:1', mean_interval: 500ms, duration: 100ms, min_gap: 200ms}",
                "arms:", "  - {name: open-200, load: {model: open, rate: 200}}",
                "  - {name: closed-1, load: {model: closed, connections: 1}}",
                "pairs: [[open-200, closed-1]]", "windows: {arm: open-200, window: 1s}", ""));
    }

    /** The windows as the agent would have served them, kept where {@code StalledRun} keeps them (same clock). */
    private static void keepAgentStalls(Path runDir, String runId, List<StallWindow> windows) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode answer = json.createObjectNode().put("run_id", runId);
        ArrayNode stalls = answer.putArray("stalls");
        for (StallWindow w : windows) {
            stalls.addObject().put("index", w.index()).put("run_id", runId).put("start_ns", w.startNanos())
                    .put("end_ns", w.endNanos()).put("held", w.held()).put("kind", "block");
        }
        json.writeValue(runDir.resolve(StalledRun.AGENT_STALLS_FILE).toFile(), answer);
    }

    /** One simulated run of the experiment, as {@code StalledRun} would report it. */
    private void run(String arm, int round, boolean stall, List<Integer> missing) throws IOException {
        StallPlan plan = StallPlan.seeded(new SeededPlanSpec(round, 500 * MS, 100 * MS, 200 * MS, 2 * S), StallKind.BLOCK);
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(MS), 3);
        Path runDir = out.resolve("runs").resolve(String.format(Locale.ROOT, "r%d-%s-%s", round, arm,
                stall ? "stall" : "nostall"));
        List<StallWindow> windows = new ArrayList<>();
        long[] startNanos = new long[1];
        TesterSpec tester = ARMS.get(arm).duration(2 * S).seed(round).grace(S)
                .name(arm + " r" + round + (stall ? " stall" : " no-stall"));
        RunListener arming = new RunListener() {
            @Override
            public void countedStart(long start) {
                startNanos[0] = start;
                if (stall) {
                    server.arm(plan, start);
                    for (PlannedStall p : plan.stalls()) {
                        windows.add(new StallWindow(p.index(), start + p.offsetNanos(), start + p.endOffsetNanos(), 1));
                    }
                }
            }
        };
        RunResult result = LoadRun.run(tester, scheduler, server, RequestSource.get(Simulation.SIMULATED_URI), runDir,
                LoadRun.RunOptions.defaults().withListener(arming)).with(r -> {
                    r.round = round;
                    r.stall = stall;
                });
        StalledRun.StalledResult outcome;
        if (stall) {
            RunAlignment alignment = StallAlignment.alignLog(runDir.resolve(RequestLog.FILE_NAME), windows, 2 * S,
                    AlignedBins.forStall(100 * MS), 500, round);
            String warning = MissingStalls.warning(missing);
            keepAgentStalls(runDir, "run-" + round, windows);
            outcome = new StalledRun.StalledResult(warning == null ? result : result.withWarnings(List.of(warning)),
                    new ClockOffset(1500, 20000, 40000, 9),
                    new AdminClient.Armed("run-" + round, startNanos[0], 2 * S, plan.stalls()), List.of(), alignment, missing);
        } else {
            outcome = new StalledRun.StalledResult(result, ClockOffset.SAME_CLOCK, null, List.of(), null, List.of());
        }
        entries.add(new AlignedResults.Entry(runDir, outcome, arm));
        results.computeIfAbsent(arm, k -> new LinkedHashMap<>()).computeIfAbsent(stall, k -> new TreeMap<>())
                .put(round, outcome.result());
        outcomes.computeIfAbsent(arm, k -> new LinkedHashMap<>()).computeIfAbsent(stall, k -> new TreeMap<>())
                .put(round, outcome);
    }
}
