package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.ServerStall;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.ResultsSchema;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The agent dies in the middle of {@code loadsmith run examples/scenarios/score-with-stalls.yaml} (10 s at
 * 100/s, a 100 ms stall about every second): the scored service with the real agent in a child JVM is
 * killed once the agent has listed two stalls, the first of them ended more than 2.5 s before (so the run
 * has fetched it). The run goes on to its end, writes every file, keeps the windows fetched before, lists
 * the planned stalls it could not confirm, and exits 3. Then the same with two services, each with its agent,
 * both armed, one of them killed: that one is lost alone, the other's windows are all kept.
 */
class AgentDiesIT {

    private static final long KEPT_NANOS = 2_500_000_000L;

    @Test
    void an_agent_killed_mid_run_keeps_the_windows_fetched_lists_the_unconfirmed_stalls_and_exits_3(
            @TempDir Path dir) throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Path out = dir.resolve("out");
        List<ServerStall> seenBeforeKill = new ArrayList<>();
        BackgroundRun cli;
        try (ServiceProcess service = ServiceProcess.start(jars, 4, List.of(), dir.resolve("service.log"), 180)) {
            cli = BackgroundRun.start(root, out, service.url().toString(), service.admin().base().toString());
            killOnceFetched(service, cli, seenBeforeKill);
        }
        int code = cli.exit().get(60, TimeUnit.SECONDS);

        String printed = cli.printed();
        assertThat(code).as(printed).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(cli.errors().toString()).as(printed).contains("the agent stopped answering")
                .contains("could not be confirmed");
        for (String file : List.of("results.json", RequestLog.FILE_NAME, "latency.hlog", "report.html",
                "agent-stalls.json", "scenario.yaml")) {
            assertThat(out.resolve(file)).as(file + "; " + printed).isNotEmptyFile();
        }
        assertThat(ResultsSchema.problems(out.resolve("results.json"))).as(printed).isEmpty();
        ObjectMapper json = new ObjectMapper();
        JsonNode run = json.readTree(out.resolve("results.json").toFile()).at("/runs/0");
        List<Integer> kept = new ArrayList<>();
        run.get("stalls").forEach(stall -> kept.add(stall.get("index").asInt()));
        assertThat(kept).as("the first stall ended %s ns before the kill", KEPT_NANOS).startsWith(0);
        for (int i = 0; i < kept.size(); i++) {
            assertThat(kept.get(i)).as("windows kept in order from the first").isEqualTo(i);
            assertThat(seenBeforeKill).extracting(ServerStall::index).contains(kept.get(i));
        }
        JsonNode lost = run.get("agent_lost");
        assertThat(lost).as(run.toString()).isNotNull();
        assertThat(lost.get("at_ms").asDouble()).isBetween(0.0, 10_000.0);
        List<Integer> unconfirmed = new ArrayList<>();
        lost.get("unconfirmed_stalls").forEach(index -> unconfirmed.add(index.asInt()));
        assertThat(unconfirmed).as("the kill left at least 2 s of a plan of a stall a second").isNotEmpty()
                .allSatisfy(index -> assertThat(index).isGreaterThan(kept.get(kept.size() - 1)))
                .doesNotContainAnyElementsOf(kept);
        assertThat(run.at("/stall_summary/missing")).as("an unconfirmed stall is not a missing one").isEmpty();
        assertThat(run.get("warnings").toString()).contains("the agent stopped answering");
        JsonNode agentStalls = json.readTree(out.resolve("agent-stalls.json").toFile());
        assertThat(agentStalls.get("agent_lost").asBoolean()).isTrue();
        assertThat(agentStalls.get("stalls")).hasSize(kept.size());
    }

    @Test
    void one_of_two_agents_killed_mid_run_is_lost_alone_the_other_keeps_every_window_and_the_run_exits_3(
            @TempDir Path dir) throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Path out = dir.resolve("out");
        List<ServerStall> seenBeforeKill = new ArrayList<>();
        CompletableFuture<ServiceProcess> startingKept = start(jars, dir.resolve("kept.log"));
        CompletableFuture<ServiceProcess> startingKilled = start(jars, dir.resolve("killed.log"));
        String keptAdmin;
        String killedAdmin;
        BackgroundRun cli;
        int code;
        try (ServiceProcess kept = startingKept.join(); ServiceProcess killed = startingKilled.join()) {
            keptAdmin = kept.admin().base().toString();
            killedAdmin = killed.admin().base().toString();
            cli = BackgroundRun.start(root, out, kept.url().toString(), "['" + keptAdmin + "', '" + killedAdmin + "']");
            killOnceFetched(killed, cli, seenBeforeKill);
            code = cli.exit().get(60, TimeUnit.SECONDS); // the kept service runs until the run has ended
        }

        String printed = cli.printed();
        assertThat(code).as(printed).isEqualTo(ExitCodes.UNREACHABLE);
        assertThat(cli.errors().toString()).as(printed).contains("replica " + killedAdmin + ": the agent stopped answering")
                .doesNotContain("replica " + keptAdmin + ":");
        assertThat(ResultsSchema.problems(out.resolve("results.json"))).as(printed).isEmpty();
        ObjectMapper json = new ObjectMapper();
        JsonNode run = json.readTree(out.resolve("results.json").toFile()).at("/runs/0");
        JsonNode replicas = run.get("replicas");
        assertThat(replicas).as(run.toString()).hasSize(2);
        assertThat(replicas.get(0).get("address").asText()).isEqualTo(keptAdmin);
        assertThat(replicas.get(0).has("agent_lost")).as("the agent that answered is not lost").isFalse();
        assertThat(replicas.get(0).get("missing")).isEmpty();
        JsonNode lost = replicas.get(1).get("agent_lost");
        assertThat(lost).as(replicas.toString()).isNotNull();
        assertThat(lost.get("unconfirmed_stalls")).as("the kill left at least 2 s of a plan of a stall a second")
                .isNotEmpty();
        assertThat(run.get("agent_lost")).as("the run's: the first agent lost").isEqualTo(lost);

        List<Integer> keptIndices = new ArrayList<>();
        List<Integer> killedIndices = new ArrayList<>();
        for (JsonNode stall : run.get("stalls")) {
            (stall.get("replica").asText().equals(keptAdmin) ? keptIndices : killedIndices).add(stall.get("index").asInt());
        }
        assertThat(keptIndices).as("every window of the agent that answered").hasSize(replicas.get(0).get("stalls").asInt())
                .hasSizeGreaterThan(killedIndices.size());
        assertThat(killedIndices).as("the lost agent's windows fetched before the kill").startsWith(0)
                .hasSize(replicas.get(1).get("stalls").asInt());
        for (int index : killedIndices) {
            assertThat(seenBeforeKill).extracting(ServerStall::index).contains(index);
        }
        JsonNode agentStalls = json.readTree(out.resolve("agent-stalls.json").toFile()).get("replicas");
        assertThat(agentStalls.get(0).has("agent_lost")).isFalse();
        assertThat(agentStalls.get(1).get("agent_lost").asBoolean()).isTrue();
        assertThat(agentStalls.get(1).get("stalls")).hasSize(killedIndices.size());
    }

    /** Starts a scored service with the agent in the background (the two of a test start at once). */
    private static CompletableFuture<ServiceProcess> start(ServiceProcess.Jars jars, Path log) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return ServiceProcess.start(jars, 4, List.of(), log, 180);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * {@code loadsmith run examples/scenarios/score-with-stalls.yaml} for 10 s at 100/s with a stall about
     * every second, armed on {@code admins} (a URL, or a YAML list of them), in the background.
     */
    private record BackgroundRun(StringWriter console, StringWriter errors, CompletableFuture<Integer> exit) {

        static BackgroundRun start(Path root, Path out, String targetUrl, String admins) {
            StringWriter console = new StringWriter();
            StringWriter errors = new StringWriter();
            CommandLine cmd = Main.commandLine();
            cmd.setOut(new PrintWriter(console, true));
            cmd.setErr(new PrintWriter(errors, true));
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cmd.execute("run",
                    root.resolve("examples/scenarios/score-with-stalls.yaml").toString(),
                    "--out", out.toString(), "--progress", "none",
                    "--set", "target.url=" + targetUrl, "--set", "stalls.admin=" + admins,
                    "--set", "stalls.mean_interval=1s", "--set", "load.rate=100", "--set", "load.duration=10s",
                    "--set", "load.warmup=100", "--set", "load.grace=1s"));
            return new BackgroundRun(console, errors, exit);
        }

        String printed() {
            return console + "\n" + errors;
        }
    }

    /** Kills {@code service} (its agent with it) once the run has fetched its first stall; the run goes on. */
    private static void killOnceFetched(ServiceProcess service, BackgroundRun cli, List<ServerStall> seenBeforeKill) {
        AdminClient agent = service.admin();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> cli.exit().isDone() || fetchedByNow(agent, seenBeforeKill));
        assertThat(cli.exit().isDone()).as("the run still goes on; %s", cli.printed()).isFalse();
        service.processes().forEach(ProcessHandle::destroyForcibly);
    }

    /** True once the agent lists two stalls and the first ended long enough ago for the run to have fetched it. */
    private static boolean fetchedByNow(AdminClient agent, List<ServerStall> seen) {
        try {
            List<ServerStall> stalls = agent.stalls(null, 0).stalls();
            if (stalls.size() < 2 || agent.serverNanos() - stalls.get(0).endNanos() < KEPT_NANOS) {
                return false;
            }
            seen.clear();
            seen.addAll(stalls);
            return true;
        } catch (AdminException e) {
            return false;
        }
    }
}
