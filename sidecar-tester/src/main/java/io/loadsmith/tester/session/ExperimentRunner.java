package io.loadsmith.tester.session;

import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.experiment.IdleCheck;
import io.loadsmith.tester.experiment.RunOrder;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsDirs;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Scenario;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs an experiment: rounds of every arm with stall on and off, one seed per round shared by every arm
 * (so runs pair up), arms in an order that rotates between rounds, the service restarted before each run
 * when asked; then the per-arm table, the paired comparisons and the optional analyses, all into one
 * results.json with the top-level {@code experiment} object (docs/experiments.md).
 */
public final class ExperimentRunner {

    private ExperimentRunner() {
    }

    /** One run of the experiment. */
    record Slot(ExperimentSpec.ArmSpec arm, boolean stall) {
        String label() {
            return arm.name() + (stall ? "/stall" : "/no-stall");
        }
    }

    /**
     * Runs the experiment into {@code out}, then writes results.json and the report there.
     *
     * @throws UnreachableException when the service is managed and the agent's or the service's jar is missing
     */
    public static void run(ExperimentSpec spec, Path out, PrintWriter console) throws IOException, InterruptedException {
        run(spec, out, console, new RunStops());
    }

    /**
     * {@link #run(ExperimentSpec, Path, PrintWriter)}, stopped early through {@code stops}: the runs so far
     * are written (results.json without the {@code experiment} analysis, which needs every run) and reported.
     */
    public static void run(ExperimentSpec spec, Path out, PrintWriter console, RunStops stops)
            throws IOException, InterruptedException {
        ServiceProcess.Jars jars = null;
        if (spec.service().managedThreads() > 0) {
            jars = ServiceProcess.Jars.find();
            if (jars.missing() != null) {
                throw new UnreachableException(jars.missing());
            }
        }
        // a gRPC scenario's managed service serves its gRPC port too, on a free port, and the arms call that
        boolean grpc = spec.service().managedThreads() > 0 && spec.grpcTarget();
        List<String> serviceArgs = grpc ? List.of("--grpc-port", "0") : List.of();
        List<Slot> base = new ArrayList<>();
        for (ExperimentSpec.ArmSpec arm : spec.arms()) {
            for (boolean stall : spec.stallStates()) {
                base.add(new Slot(arm, stall));
            }
        }
        AlignedBins bins = AlignedBins.forStall(longestStallNanos(spec));
        List<AlignedResults.Entry> entries = new ArrayList<>();
        List<List<String>> orders = new ArrayList<>();
        Map<String, Map<Boolean, Map<Integer, RunResult>>> results = new LinkedHashMap<>();
        Map<String, Map<Boolean, Map<Integer, StalledRun.StalledResult>>> outcomes = new LinkedHashMap<>();
        Map<String, Map<Boolean, Map<Integer, Experiment.IdleResult>>> idleChecks = new LinkedHashMap<>();
        ServiceProcess service = null;
        int runNumber = 0;
        try {
            for (int round = 1; round <= spec.rounds(); round++) {
                long seed = spec.seed() + round - 1;
                List<Slot> order = RunOrder.forRound(base, round);
                orders.add(order.stream().map(Slot::label).toList());
                for (Slot slot : order) {
                    if (stops.stopped()) {
                        break;
                    }
                    runNumber++;
                    List<ProcessHandle> leftovers = List.of();
                    if (spec.service().managedThreads() > 0 && (service == null || spec.service().restartEachRun())) {
                        if (service != null) {
                            leftovers = service.processes();
                            service.close();
                        }
                        service = ServiceProcess.start(jars, spec.service().managedThreads(), serviceArgs,
                                out.resolve("service-logs").resolve("run-" + runNumber + ".log"), 180);
                    } else if (spec.service().restartCommand() != null) {
                        restart(spec.service(), console);
                    }
                    Experiment.IdleResult idle = null;
                    if (spec.service().idleShare() > 0) {
                        idle = IdleCheck.waitUntilQuiet(spec.service().idleShare(), spec.service().timeoutNanos(),
                                IdleCheck.system(leftovers));
                        if (idle.busy()) {
                            console.println("warning: " + idle.warning() + "; running anyway");
                        }
                        idleChecks.computeIfAbsent(slot.arm().name(), k -> new LinkedHashMap<>())
                                .computeIfAbsent(slot.stall(), k -> new TreeMap<>()).put(round, idle);
                    }
                    URI url = service == null ? null : grpc ? service.grpcUrl() : service.url();
                    Scenario scenario = spec.scenario(slot.arm(), seed, url);
                    URI target = scenario.target().url();
                    TesterSpec tester = scenario.tester().name(String.format(Locale.ROOT,
                            "%s r%d %s", slot.arm().name(), round, slot.stall() ? "stall" : "no-stall"));
                    AgentStalls stalls = agentStalls(spec, slot, service, seed);
                    Path runDir = out.resolve("runs").resolve(String.format(Locale.ROOT, "r%d-%s-%s", round,
                            ResultsDirs.fileSafe(slot.arm().name()), slot.stall() ? "stall" : "nostall"));
                    console.printf(Locale.ROOT, "round %d/%d, run %d: %-16s stall %-3s ...", round, spec.rounds(),
                            runNumber, slot.arm().name(), slot.stall() ? "on" : "off");
                    console.flush();
                    StalledRun.StalledResult outcome = StalledRun.real(tester, scenario.source(target), scenario.transport(),
                            runDir, StallOptions.stalled(stalls, bins).withControl(stops.next())
                                    .withTesterPauses(scenario.testerPauses()));
                    int thisRound = round;
                    outcome = outcome.withResult(outcome.result().with(b -> b.round = thisRound));
                    if (idle != null && idle.busy()) {
                        outcome = outcome.withResult(outcome.result().withWarnings(List.of(idle.warning())));
                    }
                    RunResult twin = results.getOrDefault(slot.arm().name(), Map.of())
                            .getOrDefault(!slot.stall(), Map.of()).get(round);
                    List<String> halves = ExperimentHalves.warnings(outcome.result(), twin);
                    if (!halves.isEmpty()) {
                        outcome = outcome.withResult(outcome.result().withWarnings(halves));
                    }
                    RunResult r = outcome.result();
                    console.printf(Locale.ROOT, " p99 %s ms (service %s ms), %d sent%s%n",
                            Demo.fmt(r.latencyMs().corrected().p99(), 2), Demo.fmt(r.latencyMs().service().p99(), 2),
                            r.counts().sent(), outcome.alignment() == null ? ""
                                    : ", " + outcome.alignment().summary().sentDuringTotal() + " in "
                                    + outcome.alignment().summary().stallsMet() + " stalls");
                    halves.forEach(w -> console.println("  warning: " + w));
                    console.flush();
                    entries.add(new AlignedResults.Entry(runDir, outcome, slot.arm().name()));
                    results.computeIfAbsent(slot.arm().name(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(slot.stall(), k -> new TreeMap<>()).put(round, r);
                    outcomes.computeIfAbsent(slot.arm().name(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(slot.stall(), k -> new TreeMap<>()).put(round, outcome);
                }
            }
        } finally {
            if (service != null) {
                service.close();
            }
        }
        if (stops.stopped()) {
            ResultsWriter.write(out.resolve(ResultsWriter.FILE_NAME), AlignedResults.build(out, entries));
            console.printf("stopped early: %d runs written, no experiment analysis (it needs every run)%n",
                    entries.size());
            RunReport.write(out, console);
            return;
        }
        Experiment experiment = ExperimentAnalysis.experiment(spec, orders, results, outcomes, idleChecks, out);
        ResultsWriter.write(out.resolve(ResultsWriter.FILE_NAME),
                AlignedResults.build(out, entries).withExperiment(experiment));
        ExperimentAnalysis.print(console, spec, results, outcomes, experiment);
        RunReport.write(out, console);
    }

    /** The stall length the runs' aligned bins are made for: the seeded plan's, or the longest window replayed. */
    private static long longestStallNanos(ExperimentSpec spec) {
        long longest = spec.stalls() != null ? spec.stalls().durationNanos() : 0;
        for (ExperimentSpec.ArmSpec arm : spec.arms()) {
            if (arm.replay() != null) {
                longest = Math.max(longest, arm.replay().plan().longestStallNanos());
            }
        }
        return longest > 0 ? longest : 100_000_000L;
    }

    /**
     * The agent a run of {@code slot} arms: with the arm's replay or else the experiment's seeded plan when it
     * is stalled; with a plan of no stalls over the same span when it is the control half, so that both halves
     * run the agent's pause observer alike (docs/experiments.md, "Both halves observed"); null when there is no
     * agent to arm (an experiment with stall off only, no stalls block and no managed service).
     */
    private static AgentStalls agentStalls(ExperimentSpec spec, Slot slot, ServiceProcess service, long seed)
            throws IOException {
        ExperimentSpec.Stalls s = spec.stalls();
        AdminClient admin;
        if (service != null) {
            admin = service.admin();
        } else if (s != null && s.admin() != null) {
            admin = AdminClient.of(s.admin(), ScenarioRun.token(s.tokenFile(), spec.file()));
        } else {
            return null;
        }
        AgentStalls stalled;
        if (slot.arm().replay() != null) {
            stalled = AgentStalls.replayed(slot.arm().replay(), List.of(admin));
        } else if (s != null) {
            stalled = new AgentStalls(admin, seed, s.meanIntervalNanos(), s.durationNanos(), s.minGapNanos(), s.kind());
        } else {
            stalled = new AgentStalls(admin, seed, 0, 0, 0, StallKind.BLOCK); // stall off only: never armed as it is
        }
        return slot.stall() ? stalled : stalled.asControl();
    }

    private static void restart(ExperimentSpec.Service service, PrintWriter console) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("sh", "-c", service.restartCommand()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (process.waitFor() != 0) {
            throw new IOException("service.restart: the command exited with " + process.exitValue() + ": "
                    + service.restartCommand());
        }
        if (service.health() == null) {
            return;
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + service.timeoutNanos();
        while (true) {
            try {
                HttpResponse<Void> answer = http.send(HttpRequest.newBuilder(service.health())
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
                if (answer.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("service.health: " + service.health() + " did not answer 200 within "
                        + service.timeoutNanos() / 1_000_000_000L + " s after the restart");
            }
            Thread.sleep(200);
        }
    }
}
