package io.loadsmith.tester.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.profile.PauseProfile;
import io.loadsmith.tester.profile.ReplayPlan;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scheduler.VirtualScheduler;
import io.loadsmith.tester.simulate.ServiceTime;
import io.loadsmith.tester.simulate.SimulatedServer;
import io.loadsmith.tester.simulate.Simulation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replayed plan on a virtual clock, an {@link InMemoryAgent} beside a simulated server: the windows sit at
 * the profile's offsets from the counted start (not from the arming, 300 ms before it), an arm that reaches
 * the agent off the time expected is armed again, and every stall row names the pause it replays.
 */
class ReplayedRunTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final PauseProfile PROFILE = new PauseProfile(PauseProfile.SCHEMA,
            new PauseProfile.Origin("gc-log", "gc.log", "G1", "uptime", "jvm-start", null), 10_000, 1.0, List.of(
                    new PauseProfile.Pause(5_500, 100, "gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)"),
                    new PauseProfile.Pause(6_800, 200, "gc", "G1: Pause Full (System.gc())"),
                    new PauseProfile.Pause(7_000, 50, "host", "host")),
            new PauseProfile.Unread(0, List.of()));

    @Test
    void a_replayed_run_puts_the_windows_at_the_profiles_offsets_from_the_counted_start_and_names_them(
            @TempDir Path dir) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(2 * MS), 1);
        InMemoryAgent agent = new InMemoryAgent("sim-replay", scheduler, 0, server).armsLate(30 * MS);
        ReplayPlan replay = ReplayPlan.of(PROFILE, null, ReplayPlan.ReplayRange.ALL.from(5 * S));
        AgentStalls stalls = AgentStalls.replayed(replay, List.of(agent));
        TesterSpec tester = TesterSpec.open(200).duration(3 * S).grace(S).seed(5).startDelay(300 * MS).name("replayed");

        StalledRun.StalledResult outcome = StalledRun.onVirtualClock(tester, scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), dir, StallOptions.stalled(stalls));
        AlignedResults.Entry entry = new AlignedResults.Entry(dir, outcome, "replayed");
        ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), AlignedResults.build(dir, List.of(entry)));

        assertThat(agent.arms()).as("the first arm came 30 ms late; the second, expected to take as long, came at"
                + " once, 30 ms early; the third, expected at once, came at once").isEqualTo(3);
        JsonNode run = JSON.readTree(dir.resolve(ResultsWriter.FILE_NAME).toFile()).at("/runs/0");
        long startNanos = run.get("start_ns").asLong();
        JsonNode rows = run.get("stalls");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("start_ns").asLong() - startNanos).isEqualTo(500 * MS);
        assertThat(rows.get(0).get("end_ns").asLong() - startNanos).isEqualTo(600 * MS);
        assertThat(rows.get(1).get("start_ns").asLong() - startNanos).isEqualTo(1_800 * MS);
        assertThat(rows.get(1).get("end_ns").asLong() - startNanos).isEqualTo(2_050 * MS);
        assertThat(rows.get(0).get("replayed").toString()).isEqualTo(
                "{\"source\":\"gc\",\"label\":\"G1: Pause Young (Normal) (G1 Evacuation Pause)\",\"offset_ms\":5500.0,"
                        + "\"duration_ms\":100.0,\"planned_offset_ms\":500.0,\"planned_duration_ms\":100.0}");
        assertThat(rows.get(1).get("replayed").toString()).isEqualTo(
                "{\"source\":\"gc+host\",\"label\":\"G1: Pause Full (System.gc()) + host\",\"offset_ms\":6800.0,"
                        + "\"duration_ms\":250.0,\"planned_offset_ms\":1800.0,\"planned_duration_ms\":250.0}");
        assertThat(outcome.replayed()).extracting(RunResult.Replayed::offsetMs).containsExactly(5_500.0, 6_800.0);

        StringWriter console = new StringWriter();
        PerStallTable.print(new PrintWriter(console, true), List.of(entry));
        assertThat(console.toString()).contains("replays (offset in the profile, source: label)")
                .contains("5500.00 ms gc: G1: Pause Young (Normal) (G1 Evacuation Pause)")
                .contains("6800.00 ms gc+host: G1: Pause Full (System.gc()) + host");
    }

    @Test
    void a_seeded_runs_rows_carry_no_replayed_field(@TempDir Path dir) throws IOException {
        VirtualScheduler scheduler = new VirtualScheduler();
        SimulatedServer server = new SimulatedServer(scheduler, 1, ServiceTime.constant(2 * MS), 1);
        InMemoryAgent agent = new InMemoryAgent("sim-seeded", scheduler, 0, server).armsLate(30 * MS);
        AgentStalls stalls = new AgentStalls(agent, 3, 1_000 * MS, 100 * MS, 500 * MS,
                io.loadsmith.stall.plan.StallKind.BLOCK);
        TesterSpec tester = TesterSpec.open(200).duration(3 * S).grace(S).seed(5).startDelay(0).name("seeded");

        StalledRun.StalledResult outcome = StalledRun.onVirtualClock(tester, scheduler, server,
                RequestSource.get(Simulation.SIMULATED_URI), dir, StallOptions.stalled(stalls));
        ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME),
                AlignedResults.build(dir, List.of(new AlignedResults.Entry(dir, outcome, "seeded"))));

        assertThat(agent.arms()).as("a seeded plan is armed once, however late").isEqualTo(1);
        assertThat(outcome.replayed()).isNull();
        JsonNode rows = JSON.readTree(dir.resolve(ResultsWriter.FILE_NAME).toFile()).at("/runs/0/stalls");
        assertThat(rows).isNotEmpty().allSatisfy(row -> assertThat(row.has("replayed")).isFalse());
    }
}
