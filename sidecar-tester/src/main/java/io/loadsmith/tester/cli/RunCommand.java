package io.loadsmith.tester.cli;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.metrics.MetricsEndpoint;
import io.loadsmith.tester.metrics.RunLabels;
import io.loadsmith.tester.report.ReportWriter;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioParser;
import io.loadsmith.tester.session.RunReport;
import io.loadsmith.tester.session.ScenarioRun;
import io.loadsmith.tester.session.Sharding;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadsmith run FILE}: one scenario against a real URL or a simulation. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run one scenario file against a real or a simulated service.",
            "The scenario (docs/scenarios.md) names its target: a real HTTP service (target.url: http:// or https://), "
                + "a gRPC service whose steps are unary calls (target.url: grpc://HOST:PORT or grpcs://, with "
                + "target.grpc.descriptor; docs/grpc.md) or a simulated one (target.simulate, needs nothing running). Writes results.json, latency.hlog and requests.bin into "
                + "the output folder, prints a table of service and corrected latency, and checks the scenario's SLOs.",
            "Ctrl-C (SIGINT or SIGTERM) stops sending, waits the grace for requests in flight, and writes everything "
                + "measured so far, marked interrupted."},
        footerHeading = "%nExamples:%n",
        footer = {
            "  loadsmith run examples/scenarios/sim-coordinated-omission.yaml",
            "  loadsmith run score.yaml --out results/today --set load.rate=800 --set load.duration=1m",
            "  loadsmith run score.yaml --shard 0/3 --start-at 2026-12-01T20:00:00Z --out results/shard-0",
            "  loadsmith run score.yaml --metrics 127.0.0.1:9464     (Prometheus scrapes http://127.0.0.1:9464/metrics)",
            "",
            "Exit codes: 0 ok, 1 an SLO failed, 2 bad input (file:line: key message), 3 target or agent unreachable, "
                + "or the target or the agent stopped answering during the run (target.give_up_after), 4 out of memory "
                + "while writing the report (the results are whole: loadsmith report DIR with more memory finishes it)."})
final class RunCommand implements Callable<Integer> {

    /** How long the Ctrl-C hook waits for the files beyond the grace. */
    private static final long HOOK_MARGIN_MILLIS = 20_000;
    /** How often the linger after the run looks for a Ctrl-C. */
    private static final long LINGER_TICK_NANOS = 100_000_000L;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The scenario file (YAML)")
    Path file;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where to write results (default: a new folder results/<name>-<yyyyMMdd-HHmmss>)")
    Path out;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override a key of the file, validated like the file (repeatable), e.g. --set load.rate=800")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--progress", defaultValue = "auto", paramLabel = "auto|line|plain|none",
            description = "Live progress: a rewritten line on a terminal, periodic plain lines otherwise (default ${DEFAULT-VALUE})")
    String progress;

    @Option(names = "--metrics", paramLabel = "HOST:PORT",
            description = "Serve live metrics (OpenMetrics, for Prometheus) at http://HOST:PORT/metrics during the run "
                + "and metrics.linger (default 5s) after it; PORT alone listens on 127.0.0.1. Overrides metrics.listen "
                + "of the file (as --set metrics.listen=HOST:PORT would). Needs a real target (docs/watching.md).")
    String metrics;

    @Option(names = "--charts", defaultValue = "on", paramLabel = "on|off",
            description = "Draw the PNG/SVG copies of the report's charts after the run (default ${DEFAULT-VALUE}). off "
                + "keeps Java2D out of the tester, for a sidecar with little memory: report.html still draws its charts, "
                + "and loadsmith report DIR draws the copies later.")
    String charts;

    @Mixin
    ShardMixin shard = new ShardMixin();

    @Override
    public Integer call() throws Exception {
        boolean staticCharts = switch (charts) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new BadInputException("--charts must be on or off (got \"" + charts + "\")");
        };
        Scenario scenario = ScenarioParser.parse(file, withMetricsOption(overrides));
        if (staticCharts) {
            // Java2D's fonts now: a report written from the Ctrl-C hook could no longer open them
            Thread prepare = new Thread(ReportWriter::prepare, "loadsmith-report-prepare");
            prepare.setDaemon(true);
            prepare.start();
        }
        Path dir = CliDirs.prepare(out, scenario.name());
        TesterSpec tester = scenario.tester();
        Sharding sharding = shard.sharding(tester, System.currentTimeMillis());
        RunControl control = RunControl.withLiveStats();
        long waitMillis = tester.graceNanos() / 1_000_000 + HOOK_MARGIN_MILLIS;
        String message = String.format("stopping: no new requests; waiting up to %.1f s for those in flight, then writing %s",
                tester.graceNanos() / 1e9, dir);
        try (StopHook hook = StopHook.install(control::stop, waitMillis, spec.commandLine().getErr(), message);
             MetricsEndpoint endpoint = startMetrics(scenario, tester, sharding, dir, control)) {
            int status = runAndWrite(scenario, tester, control, dir, sharding, endpoint, staticCharts);
            if (endpoint != null) {
                linger(scenario.metrics().lingerNanos(), control);
            }
            return status;
        }
    }

    /** The overrides with {@code --metrics} as the last, {@code metrics.listen} (checked first: errors name it). */
    private List<String> withMetricsOption(List<String> sets) {
        if (metrics == null) {
            return sets;
        }
        try {
            Scenario.Metrics.listen(metrics);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--metrics " + e.getMessage());
        }
        List<String> all = new ArrayList<>(sets);
        all.add("metrics.listen='" + metrics.replace("'", "''") + "'");
        return all;
    }

    private MetricsEndpoint startMetrics(Scenario scenario, TesterSpec tester, Sharding sharding, Path dir,
                                         RunControl control) {
        Scenario.Metrics listen = scenario.metrics();
        if (listen == null) {
            return null;
        }
        // the shards of one load share their --start-at: their run id is it, their folders differ
        String runId = sharding.startAtEpochMs() != null
                ? Instant.ofEpochMilli(sharding.startAtEpochMs()).toString() : dir.getFileName().toString();
        RunLabels labels = new RunLabels(scenario.name(), tester.model().wireName(),
                sharding.index() + "/" + sharding.count(), runId);
        try {
            MetricsEndpoint endpoint = MetricsEndpoint.start(new InetSocketAddress(listen.host(), listen.port()), labels,
                    control.live(), Clock.system());
            spec.commandLine().getOut().printf("metrics: %s%n", endpoint.uri());
            return endpoint;
        } catch (IOException e) {
            throw new BadInputException("metrics.listen: cannot listen on " + listen.host() + ":" + listen.port()
                    + " (" + e.getMessage() + ")");
        }
    }

    /** Serves the final figures {@code nanos} more, or until Ctrl-C. */
    private static void linger(long nanos, RunControl control) throws InterruptedException {
        Clock clock = Clock.system();
        long end = clock.nanoTime() + nanos;
        for (long left = nanos; left > 0 && !control.stopRequested(); left = end - clock.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, LINGER_TICK_NANOS));
        }
    }

    private int runAndWrite(Scenario scenario, TesterSpec tester, RunControl control, Path dir,
                            Sharding sharding, MetricsEndpoint endpoint, boolean staticCharts) throws Exception {
        var stdout = spec.commandLine().getOut();
        stdout.printf("loadsmith run %s: %s tester, %s -> %s%n", scenario.name(), tester.model().wireName(),
                scenario.target().simulated() ? "simulated target" : scenario.target().url(), dir);
        stdout.flush();
        boolean line = "line".equals(progress) || ("auto".equals(progress) && System.console() != null);
        ScenarioRun.ScenarioResult run = ScenarioRun.run(scenario, tester, control, dir, (counts, live) -> {
            if (endpoint != null) {
                endpoint.transport(counts);
            }
            return "none".equals(progress) ? null : new Progress(counts, live, stdout, line);
        }, sharding);
        stdout.println();
        ConsoleTable.print(stdout, run.result(), run.verdicts());
        if (run.aligned()) {
            ScenarioRun.printPerStall(stdout, dir, scenario, run);
        }
        RunReport.write(dir, stdout, staticCharts);
        String agentLost = ScenarioRun.agentLostLine(run);
        if (run.lost() != null || agentLost != null) {
            if (run.lost() != null) {
                printLost(spec.commandLine().getErr(), run.lost());
            }
            if (agentLost != null) {
                spec.commandLine().getErr().println(agentLost);
                spec.commandLine().getErr().flush();
            }
            return ExitCodes.UNREACHABLE;
        }
        return run.passed() ? ExitCodes.OK : ExitCodes.SLO_FAILED;
    }

    private static void printLost(PrintWriter err, ResultsFile.TargetLost lost) {
        err.println(ScenarioRun.lostWarning(lost));
        err.flush();
    }
}
