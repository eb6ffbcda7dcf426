package io.loadsmith.tester.session;

import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.tester.agentclient.AdminApi;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.agentclient.Replicas;
import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioException;
import io.loadsmith.tester.scenario.Slo;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.TransportStats;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code loadsmith run}'s work: one scenario against its real or simulated target; with a {@code stalls:}
 * block on the path {@code demo} and {@code experiment} take ({@link StalledRun} probes the agent's clock,
 * arms it at the counted start with the scenario's seed, fetches the run's stalls, disarms and aligns).
 * Then the SLOs checked exactly from {@code requests.bin}, {@code results.json} (aligned when stalled:
 * {@link AlignedResults}), {@code agent-stalls.json} and the copy {@code scenario.yaml}, all in the run's
 * folder. The report follows ({@link RunReport}) once the caller has printed the run.
 */
public final class ScenarioRun {


    private ScenarioRun() {
    }

    /** Starts the live view of a real run on its counts; the run closes it when it ends. */
    @FunctionalInterface
    public interface LiveView {
        AutoCloseable start(TransportStats counts, LiveStats live);
    }

    /**
     * What the run produced.
     *
     * @param result   the run's result
     * @param verdicts one per SLO of the scenario, in its order
     * @param stalled  the real run's outcome (with its alignment when stalled); null for a simulated run
     * @param lost     how the target stopped answering during the run; null when it was answering at the end
     */
    public record ScenarioResult(RunResult result, List<Slo.Verdict> verdicts, StalledRun.StalledResult stalled,
                          ResultsFile.TargetLost lost) {

        /** True when the run met the agent's stalls and was aligned with them. */
        public boolean aligned() {
            return stalled != null && stalled.alignment() != null;
        }

        /** True when every SLO passed (or there is none). */
        public boolean passed() {
            return verdicts.stream().allMatch(Slo.Verdict::pass);
        }
    }

    /**
     * Runs {@code scenario} as {@code tester} into {@code dir}, stoppable through {@code control}.
     *
     * @param live started for a real run (null: no live view)
     * @throws UnreachableException when nothing listens at the target's host and port (no request was sent)
     */
    public static ScenarioResult run(Scenario scenario, TesterSpec tester, RunControl control, Path dir, LiveView live)
            throws Exception {
        return run(scenario, tester, control, dir, live, Sharding.NONE);
    }

    /**
     * {@link #run(Scenario, TesterSpec, RunControl, Path, LiveView)} as a shard of a split load and/or from a
     * common start ({@link Sharding}); results.json then also says which shard it was and when it started.
     */
    public static ScenarioResult run(Scenario scenario, TesterSpec tester, RunControl control, Path dir, LiveView live,
                              Sharding sharding) throws Exception {
        RunResult result;
        StalledRun.StalledResult stalled = null;
        ResultsFile.TargetLost lost = null;
        ResultsFile.Start start;
        if (scenario.target().simulated()) {
            result = Simulation.run(sharding.apply(tester, null), scenario.target().simulate(),
                    scenario.source(Simulation.SIMULATED_URI), dir);
            start = new ResultsFile.Start(0, result.startNs(), sharding.startAtEpochMs());
        } else {
            WallClock wall = WallClock.now();
            tester = sharding.apply(tester, wall);
            URI url = scenario.target().url();
            checkReachable(url);
            AgentStalls agent = scenario.stalls() == null ? null : agent(scenario);
            SharedStalls shared = agent == null || !sharding.sharded() ? null : shared(scenario, tester, sharding, agent);
            try (TargetWatch watch = control.live() == null ? null
                    : TargetWatch.start(control.live(), control, scenario.target().giveUpAfterNanos(), Clock.system())) {
                stalled = runReal(scenario, tester, url, agent, dir, control, live, shared);
                lost = watch == null ? null : watch.lost();
            }
            if (lost != null) {
                stalled = stalled.withResult(stalled.result().withWarnings(List.of(lostWarning(lost))));
            }
            result = stalled.result();
            start = new ResultsFile.Start(wall.toEpochMillis(result.startNs()), result.startNs(),
                    sharding.startAtEpochMs());
            String late = lateStart(start);
            if (late != null) {
                result = result.withWarnings(List.of(late));
                stalled = stalled.withResult(result);
            }
        }
        List<Slo.Verdict> verdicts = new ArrayList<>();
        if (!scenario.slos().isEmpty()) {
            SloCheck measured = SloCheck.read(dir.resolve(RequestLog.FILE_NAME));
            for (Slo slo : scenario.slos()) {
                verdicts.add(slo.evaluate(measured));
            }
        }
        List<ResultsFile.SloResult> sloResults = new ArrayList<>();
        for (Slo.Verdict v : verdicts) {
            // latency SLOs carry value_ms, share SLOs (above(...), errors) value_percent; the other is null
            sloResults.add(new ResultsFile.SloResult(v.expr(), v.valueMillis(), v.valuePercent(), v.pass()));
        }
        ScenarioResult outcome = new ScenarioResult(result, verdicts, stalled, lost);
        ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), (outcome.aligned()
                ? AlignedResults.build(dir, List.of(entry(dir, scenario, stalled)), sloResults)
                : ResultsFile.of(List.of(result)).withSlos(sloResults)).withTargetLost(lost)
                .withShard(sharding.describe(tester)).withStart(start));
        AtomicFiles.copy(scenario.file(), dir.resolve("scenario.yaml"));
        return outcome;
    }

    private static StalledRun.StalledResult runReal(Scenario scenario, TesterSpec tester, URI url, AgentStalls agent,
                                              Path dir, RunControl control, LiveView live, SharedStalls shared)
            throws Exception {
        TransportOptions options = scenario.transport();
        try (OpenTransport http = Transports.open(options);
             AutoCloseable view = live == null ? null : live.start(http.stats(), control.live())) {
            return StalledRun.run(tester, http, scenario.source(url), dir,
                    StallOptions.stalled(agent).withControl(control).withShared(shared)
                            .withTesterPauses(scenario.testerPauses())).withTransport(options, http);
        }
    }

    /**
     * The agents of {@code scenario.stalls()} (one per replica: {@link Replicas#expand}) and its plan: seeded
     * (the horizon is the counted run) or a profile's replay.
     */
    private static AgentStalls agent(Scenario scenario) throws AdminException {
        Scenario.DeclaredStalls stalls = scenario.stalls();
        String token = token(stalls.tokenFile(), scenario.file());
        List<AdminApi> agents = new ArrayList<>();
        for (URI admin : Replicas.expand(stalls.admins(), Replicas.DNS)) {
            agents.add(AdminClient.of(admin, token));
        }
        if (stalls.replay() != null) {
            return AgentStalls.replayed(stalls.replay(), agents);
        }
        SeededPlanSpec plan = stalls.plan().seededSpec().orElseThrow();
        return new AgentStalls(agents.get(0), plan.seed(), plan.meanIntervalNanos(), plan.durationNanos(),
                plan.minGapNanos(), stalls.plan().kind(), agents);
    }

    /** The shared stalls of a shard: the run id its agent is armed under, from the file, seed, N and start. */
    private static SharedStalls shared(Scenario scenario, TesterSpec tester, Sharding sharding, AgentStalls agent)
            throws IOException {
        if (agent.replicated()) {
            throw new ScenarioException(scenario.file().getFileName() + ": stalls.admin: a sharded run (--shard) arms"
                    + " one agent; several agents in one sharded load are not supported: list one agent");
        }
        if (sharding.startAtEpochMs() == null) {
            throw new ScenarioException(scenario.file().getFileName() + ": stalls: the shards of a load with stalls"
                    + " share one agent, armed by shard 0 under a run id derived from --start-at: give --start-at");
        }
        return SharedStalls.of(Files.readAllBytes(scenario.file()), tester.seed(), sharding.index(),
                sharding.count(), sharding.startAtEpochMs());
    }

    /** The token of {@code stalls.token_file} given in {@code file}; null without one. */
    static String token(Path tokenFile, Path file) {
        try {
            return tokenFile == null ? null : TokenFile.read(tokenFile);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(file.getFileName() + ": stalls.token_file: " + e.getMessage());
        }
    }

    /** Prints the requests sent inside each stall window of an aligned run (the demo's table, one column). */
    public static void printPerStall(PrintWriter out, Path dir, Scenario scenario, ScenarioResult outcome) {
        PerStallTable.print(out, List.of(entry(dir, scenario, outcome.stalled())));
    }

    private static AlignedResults.Entry entry(Path dir, Scenario scenario, StalledRun.StalledResult stalled) {
        return new AlignedResults.Entry(dir, stalled, scenario.name());
    }

    /** The run's warning (and the console's line) for a target that stopped answering. */
    public static String lostWarning(ResultsFile.TargetLost lost) {
        StringBuilder errors = new StringBuilder();
        lost.errors().forEach((name, count) -> errors.append(errors.length() == 0 ? "" : ", ")
                .append(name).append(' ').append(count));
        return String.format(Locale.ROOT, "the target stopped answering %.0f s into the run (errors: %s)%s",
                lost.stoppedAnsweringS(), errors, lost.gaveUp() ? String.format(Locale.ROOT,
                        "; gave up after %.1f s of that (target.give_up_after)", lost.giveUpAfterS()) : "");
    }

    /** The console's line for an agent that stopped answering during the run; null when it answered. */
    public static String agentLostLine(ScenarioResult outcome) {
        if (outcome.stalled() == null || outcome.result().agentLost() == null) {
            return null;
        }
        List<Replicas.Replica> replicas = outcome.stalled().replicas();
        if (replicas != null) {
            StringBuilder lines = new StringBuilder();
            for (Replicas.Replica r : replicas) {
                if (r.lost() != null) {
                    lines.append(lines.length() == 0 ? "" : "\n").append("replica ").append(r.address()).append(": ")
                            .append(lostLine(r.lost(), r.stalls().size()));
                }
            }
            return lines.length() == 0 ? null : lines.toString();
        }
        return lostLine(outcome.result().agentLost(), outcome.stalled().stalls().size());
    }

    private static String lostLine(RunResult.AgentLost lost, int windowsFetched) {
        return StallFeed.warning(lost.atMs(), windowsFetched, lost.unconfirmedStalls()) + " (" + lost.error() + ")";
    }

    /** The warning of a counted run that started more than a millisecond after its --start-at; null if on time. */
    static String lateStart(ResultsFile.Start start) {
        if (start.startAtEpochMs() == null || start.epochMs() <= start.startAtEpochMs() + 1) {
            return null;
        }
        return String.format(Locale.ROOT, "the counted run started %d ms after --start-at (its warm-up or "
                + "preparation ended late): it is not aligned with runs that started on time",
                start.epochMs() - start.startAtEpochMs());
    }

    /** Fails fast (exit code 3) when nothing listens at the target's host and port. */
    private static void checkReachable(URI url) {
        int port = url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(url.getHost(), port), 3_000);
        } catch (IOException e) {
            throw new UnreachableException("the target " + url + " cannot be reached (" + e.getMessage() + ")");
        }
    }
}
