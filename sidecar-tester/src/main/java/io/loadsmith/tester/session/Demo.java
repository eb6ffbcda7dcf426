package io.loadsmith.tester.session;

import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.agentclient.AgentStalls;
import io.loadsmith.tester.align.AlignedBins;
import io.loadsmith.tester.align.StallSummary;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.experiment.ScoreRequests;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioParser;
import io.loadsmith.tester.transport.TransportOptions;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code loadsmith demo}: the reference scored service with the agent in a child JVM, three testers
 * against it one after another (a closed loop with one connection, a paced loop and an open loop at one
 * rate), each meeting the same seeded stalls from its own start; then the side-by-side table, the
 * per-stall counts, a two-line reading, results.json and the report. The service is always stopped.
 */
public final class Demo {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /**
     * What the demo runs.
     *
     * @param ratePerSecond      the open loop's Poisson rate and the paced loop's target
     * @param pacedConnections   the paced loop's connections (pace = connections / rate)
     * @param durationNanos      each counted run
     * @param warmupRequests     each run's warm-up
     * @param stallNanos         every stall's length
     * @param meanIntervalNanos  mean start-to-start gap of stalls
     * @param seed               the stall plan's and the schedules' seed
     * @param serviceThreads     the service's request threads
     * @param objectiveNanos     counts above it are reported
     * @param grpc               every request a unary {@code scoring.Scorer/Score} call on the service's gRPC
     *                           port (examples/scenarios/score-grpc.yaml) instead of {@code GET /score/{id}}
     */
    public record DemoOptions(double ratePerSecond, int pacedConnections, long durationNanos, long warmupRequests,
                          long stallNanos, long meanIntervalNanos, long seed, int serviceThreads, long objectiveNanos,
                          boolean grpc) {

        /**
         * The command's rate, duration and warm-up with the demo's fixed choices: 4 paced connections, 100 ms
         * stalls about every 2 s, seed 7, 4 service threads, objective 20 ms (about two minutes on a 2-core box
         * at 200/s for 25 s).
         */
        public static DemoOptions of(double ratePerSecond, long durationNanos, long warmupRequests) {
            return new DemoOptions(ratePerSecond, 4, durationNanos, warmupRequests, 100 * MS, 2 * S, 7, 4, 20 * MS,
                    false);
        }

        /** These options over gRPC ({@code true}) or HTTP/1.1. */
        public DemoOptions withGrpc(boolean value) {
            return new DemoOptions(ratePerSecond, pacedConnections, durationNanos, warmupRequests, stallNanos,
                    meanIntervalNanos, seed, serviceThreads, objectiveNanos, value);
        }

        long paceNanos() {
            return Math.round(pacedConnections * 1e9 / ratePerSecond);
        }
    }

    /** One tester of the demo, named as its line in the table and the plot. */
    public record DemoArm(String name, TesterSpec tester, int connections) {
    }

    private Demo() {
    }

    /** The three testers of the demo. */
    public static List<DemoArm> arms(DemoOptions o) {
        TesterSpec base = TesterSpec.closed(1).duration(o.durationNanos()).warmupRequests(o.warmupRequests())
                .seed(o.seed()).objective(o.objectiveNanos()).grace(5 * S);
        String rate = fmt(o.ratePerSecond(), 0);
        return List.of(
                new DemoArm("closed-1", base.name("closed-1"), 1),
                new DemoArm("paced-" + o.pacedConnections(), copy(base, TesterSpec.paced(o.pacedConnections(), o.paceNanos()))
                        .name("paced-" + o.pacedConnections()), o.pacedConnections()),
                new DemoArm("open-" + rate, copy(base, TesterSpec.open(o.ratePerSecond())).name("open-" + rate), 256));
    }

    private static TesterSpec copy(TesterSpec from, TesterSpec to) {
        return to.duration(from.durationNanos()).warmupRequests(from.warmupRequests()).seed(from.seed())
                .objective(from.objectiveNanos()).grace(from.graceNanos());
    }

    /** Where the times come from: cores and load, printed first. */
    public static String machineLine() {
        int cores = Runtime.getRuntime().availableProcessors();
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return String.format(Locale.ROOT, "times from this machine: %d cores, load average %s (1 min), %s %s, Java %s",
                cores, load < 0 ? "unknown" : fmt(load, 2), System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.version"))
                + (load > cores ? "\n  note: the load is above the core count: other work shares these cores, so the "
                + "tester and the service compete with it (figures are noisier; the counts per stall are not)" : "");
    }

    /**
     * The whole demo: builds the agent and the service first if their jars are missing, starts the service
     * with the agent in a child JVM (its log in {@code out}), runs the three testers, prints the tables,
     * writes results.json and the report into {@code out}, and stops the service.
     */
    public static void run(DemoOptions o, Path out, PrintWriter console) throws IOException, InterruptedException {
        run(o, out, console, new RunStops());
    }

    /** {@link #run(DemoOptions, Path, PrintWriter)}, stopped early through {@code stops}: what ran is written. */
    public static void run(DemoOptions o, Path out, PrintWriter console, RunStops stops)
            throws IOException, InterruptedException {
        ServiceProcess.Jars jars = jars(console);
        console.println("starting the scoring service with the loadsmith agent (first start builds its shop database)...");
        console.flush();
        try (ServiceProcess service = ServiceProcess.start(jars, o.serviceThreads(), serviceArgs(o),
                out.resolve("service.log"), 180)) {
            console.printf("service %s (pid %d), agent admin API %s; stalls of %d ms about every %d ms (seed %d)%n",
                    o.grpc() ? service.grpcUrl() : service.url(), service.pid(), service.admin().base(), o.stallNanos() / 1_000_000,
                    o.meanIntervalNanos() / 1_000_000, o.seed());
            console.flush();
            run(service, o, out, console, stops);
        }
        RunReport.write(out, console);
    }

    /** What the service is started with beyond its port and threads: its gRPC port too for a gRPC demo. */
    public static List<String> serviceArgs(DemoOptions o) {
        return o.grpc() ? List.of("--grpc-port", "0") : List.of();
    }

    /** The agent and service jars: a distribution's, or the source tree's, built first if they are missing. */
    private static ServiceProcess.Jars jars(PrintWriter console) throws IOException, InterruptedException {
        ServiceProcess.Jars found = ServiceProcess.Jars.find();
        if (found.missing() != null && ServiceProcess.distributionHome().isEmpty()) {
            console.println("building the agent and the scoring service (first run only)...");
            console.flush();
            String wrapper = System.getProperty("os.name").toLowerCase().contains("win") ? "mvnw.cmd" : "./mvnw";
            Process build = new ProcessBuilder(wrapper, "-B", "-q", "-DskipTests", "package", "-pl",
                    "agent,examples/scoring-service", "-am").directory(ServiceProcess.root().toFile()).inheritIO().start();
            if (build.waitFor() != 0 || found.missing() != null) {
                throw new UnreachableException("cannot build what the demo needs: " + found.missing());
            }
        }
        if (found.missing() != null) {
            throw new UnreachableException(found.missing());
        }
        return found;
    }

    /**
     * Runs the demo against a service that is already up (its agent at {@code service.admin()}) and writes
     * results into {@code out}. Returns the results document's path.
     */
    public static Path run(ServiceProcess service, DemoOptions o, Path out, PrintWriter console) throws IOException {
        return run(service, o, out, console, new RunStops());
    }

    private static Path run(ServiceProcess service, DemoOptions o, Path out, PrintWriter console, RunStops stops)
            throws IOException {
        AgentStalls stalls = new AgentStalls(service.admin(), o.seed(), o.meanIntervalNanos(), o.stallNanos(),
                Math.max(o.stallNanos(), Math.min(500 * MS, o.meanIntervalNanos())), StallKind.BLOCK);
        AlignedBins bins = AlignedBins.forStall(o.stallNanos());
        Requests requests = requests(service, o);
        List<AlignedResults.Entry> entries = new ArrayList<>();
        for (DemoArm arm : arms(o)) {
            if (stops.stopped()) {
                break;
            }
            console.printf(Locale.ROOT, "running %-10s %s, %d s counted after %d warm-up requests...%n", arm.name(),
                    describe(arm.tester()), o.durationNanos() / S, o.warmupRequests());
            console.flush();
            Path runDir = out.resolve("runs").resolve(arm.name());
            StalledRun.StalledResult outcome = StalledRun.real(arm.tester(), requests.source(),
                    requests.transport().withConnections(arm.connections()), runDir,
                    StallOptions.stalled(stalls, bins).withControl(stops.next()));
            entries.add(new AlignedResults.Entry(runDir, outcome, arm.name()));
        }
        Path file = ResultsWriter.write(out.resolve(ResultsWriter.FILE_NAME), AlignedResults.build(out, entries));
        printTable(console, entries, o);
        PerStallTable.print(console, entries);
        if (entries.size() == arms(o).size()) {
            printReading(console, entries, o);
        }
        return file;
    }

    /** What every arrival sends, and on which transport (its pool sized per tester). */
    private record Requests(RequestSource source, TransportOptions transport) {
    }

    /**
     * {@code GET /score/{id}} on HTTP/1.1; for a gRPC demo, the calls of examples/scenarios/score-grpc.yaml
     * (its descriptor set, its customers and their expected scores checked) on HTTP/2, sent to the service's
     * gRPC port.
     */
    private static Requests requests(ServiceProcess service, DemoOptions o) {
        if (!o.grpc()) {
            return new Requests(new ScoreRequests(service.url(), 20_000), TransportOptions.connections(1));
        }
        Path file = ServiceProcess.distributionHome().orElseGet(ServiceProcess::root)
                .resolve("examples/scenarios/score-grpc.yaml");
        Scenario scenario = ScenarioParser.parse(file, List.of("target.url=" + service.grpcUrl()));
        return new Requests(scenario.source(service.grpcUrl()), scenario.transport());
    }

    static String describe(TesterSpec t) {
        return switch (t.model()) {
            case CLOSED -> "closed loop, " + t.connections() + " connection" + (t.connections() == 1 ? "" : "s");
            case PACED -> "paced loop, " + t.connections() + " connections, one request every "
                    + fmt(t.paceNanos() / 1e6, 2) + " ms each";
            case OPEN -> "open loop, Poisson arrivals at " + fmt(t.ratePerSecond(), 0) + "/s";
        };
    }

    private static void printTable(PrintWriter out, List<AlignedResults.Entry> entries, DemoOptions o) {
        out.println();
        out.printf(Locale.ROOT, "%-10s %7s %8s %9s %9s %9s %9s %9s %7s %9s %8s%n", "tester", "sent", "rate/s",
                "p50 ms", "p99 ms", "p99 corr", "max corr", "mean corr", ">" + fmt(o.objectiveNanos() / 1e6, 0) + "ms",
                "in stalls", "overlap");
        for (AlignedResults.Entry e : entries) {
            RunResult r = e.outcome().result();
            StallSummary s = e.outcome().alignment().summary();
            out.printf(Locale.ROOT, "%-10s %7d %8s %9s %9s %9s %9s %9s %7d %9d %7s%%%n", e.line(), r.counts().sent(),
                    fmt(r.achievedRate(), 1), fmt(r.latencyMs().service().p50(), 2), fmt(r.latencyMs().service().p99(), 2),
                    fmt(r.latencyMs().corrected().p99(), 2), fmt(r.latencyMs().corrected().max(), 1),
                    fmt(r.latencyMs().corrected().mean(), 2), r.aboveObjective().corrected(), s.sentDuringTotal(),
                    fmt(100 * s.overlappingShare(), 2));
        }
        out.println("(p50/p99 ms: service latency, from the actual send; corr: corrected, from the intended send;"
                + " in stalls: requests sent inside stall windows; overlap: share of requests whose lifetime met a stall)");
    }

    private static void printReading(PrintWriter out, List<AlignedResults.Entry> entries, DemoOptions o) {
        AlignedResults.Entry closed = entries.get(0);
        AlignedResults.Entry paced = entries.get(1);
        AlignedResults.Entry open = entries.get(2);
        StallSummary c = closed.outcome().alignment().summary();
        StallSummary op = open.outcome().alignment().summary();
        double expected = o.ratePerSecond() * o.stallNanos() / 1e9;
        out.println();
        out.printf(Locale.ROOT, "Reading: the closed loop sent %d requests during its %d stalls (it waits with the service), "
                        + "so only %s%% of its requests met a stall and its p99 (%s ms) %s.%n",
                c.sentDuringTotal(), c.stallsMet(), fmt(100 * c.overlappingShare(), 2),
                fmt(closed.outcome().result().latencyMs().corrected().p99(), 2),
                c.p99CanSeeStalls() ? "can still show them" : "cannot show them");
        out.printf(Locale.ROOT, "The open loop kept sending (%s per stall, ~%s expected at %s/s) and its corrected p99 "
                        + "(%s ms) shows the stalls; the paced loop's p99 is %s ms.%n",
                op.stallsMet() == 0 ? "-" : fmt(op.sentDuringTotal() / (double) op.stallsMet(), 1), fmt(expected, 0),
                fmt(o.ratePerSecond(), 0), fmt(open.outcome().result().latencyMs().corrected().p99(), 2),
                fmt(paced.outcome().result().latencyMs().corrected().p99(), 2));
    }

    static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
