package io.loadsmith.tester.cli;

import io.loadsmith.tester.align.AgentStalls;
import io.loadsmith.tester.align.StalledRun;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.report.ReportWriter;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioParser;
import io.loadsmith.tester.scenario.Slo;
import io.loadsmith.tester.simulate.Simulation;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.TransportOptions;
import io.loadsmith.tester.transport.Transports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadsmith run FILE}: one scenario against a real URL or a simulation. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run one scenario file (docs/scenarios.md) against its target: a real HTTP service",
            "(target.url) or a simulated one (target.simulate, needs nothing running).",
            "Writes results.json, latency.hlog and requests.bin into the output folder, prints a table of",
            "service and corrected latency, and checks the scenario's SLOs.",
            "Ctrl-C (SIGINT or SIGTERM) stops sending, waits the grace for requests in flight, and writes",
            "everything measured so far, marked interrupted."},
        footerHeading = "%nExamples:%n",
        footer = {
            "  loadsmith run examples/scenarios/sim-coordinated-omission.yaml",
            "  loadsmith run score.yaml --out results/today --set load.rate=800 --set load.duration=1m",
            "",
            "Exit codes: 0 ok, 1 an SLO failed, 2 bad input (file:line: key message), 3 target or agent unreachable."})
final class RunCommand implements Callable<Integer> {

    /** How long the Ctrl-C hook waits for the files beyond the grace. */
    private static final long HOOK_MARGIN_MILLIS = 20_000;

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

    @Override
    public Integer call() throws Exception {
        Scenario scenario = ScenarioParser.parse(file, overrides);
        Path dir = CliDirs.prepare(out, scenario.name());
        TesterSpec tester = scenario.tester();
        RunControl control = RunControl.withLiveStats();
        CountDownLatch written = new CountDownLatch(1);
        long waitMillis = tester.graceNanos() / 1_000_000 + HOOK_MARGIN_MILLIS;
        var stderr = spec.commandLine().getErr();
        Thread hook = new Thread(() -> {
            stderr.printf("%nstopping: no new requests; waiting up to %.1f s for those in flight, then writing %s%n",
                    tester.graceNanos() / 1e9, dir);
            stderr.flush();
            control.stop();
            try {
                written.await(waitMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "loadsmith-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        Thread prepare = new Thread(ReportWriter::prepare, "loadsmith-report-prepare");
        prepare.setDaemon(true);
        prepare.start();
        try {
            return runAndWrite(scenario, tester, control, dir);
        } finally {
            written.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it returns now that the files are written
            }
        }
    }

    private int runAndWrite(Scenario scenario, TesterSpec tester, RunControl control, Path dir) throws Exception {
        var stdout = spec.commandLine().getOut();
        RunResult result;
        StalledRun.Outcome stalled = null;
        stdout.printf("loadsmith run %s: %s tester, %s -> %s%n", scenario.name(), tester.model().wireName(),
                scenario.target().simulated() ? "simulated target" : scenario.target().url(), dir);
        stdout.flush();
        if (scenario.target().simulated()) {
            result = Simulation.run(tester, scenario.target().simulate(),
                    scenario.source(Simulation.SIMULATED_URI), dir);
        } else {
            URI url = scenario.target().url();
            checkReachable(url);
            AgentStalls agent = scenario.stalls() == null ? null : ScenarioStalls.agent(scenario);
            stalled = runReal(scenario, tester, url, agent, dir, control);
            result = stalled.result();
            if (agent != null) {
                ScenarioStalls.writeAgentStalls(dir, agent, stalled);
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
        boolean aligned = stalled != null && stalled.alignment() != null;
        if (aligned) {
            ScenarioStalls.writeResults(dir, scenario, stalled, sloResults);
        } else {
            ResultsWriter.write(dir.resolve(ResultsWriter.FILE_NAME), ResultsFile.of(List.of(result)).withSlos(sloResults));
        }
        writeScenarioCopy(scenario, dir);
        stdout.println();
        ConsoleTable.print(stdout, result, verdicts);
        if (aligned) {
            ScenarioStalls.printPerStall(stdout, dir, scenario, stalled);
        }
        ReportCommand.writeAfterRun(dir, stdout);
        return verdicts.stream().allMatch(Slo.Verdict::pass) ? ExitCodes.OK : ExitCodes.SLO_FAILED;
    }

    private StalledRun.Outcome runReal(Scenario scenario, TesterSpec tester, URI url, AgentStalls agent, Path dir,
                                       RunControl control) throws Exception {
        TransportOptions options = scenario.transport();
        try (OpenTransport http = Transports.open(options)) {
            boolean terminal = System.console() != null;
            Progress live = "none".equals(progress) ? null : new Progress(http.stats(), control.live(),
                    spec.commandLine().getOut(), "line".equals(progress) || ("auto".equals(progress) && terminal));
            try {
                return StalledRun.run(tester, http, scenario.source(url), dir, agent,
                        agent == null ? null : ScenarioStalls.bins(scenario), control).withTransport(options);
            } finally {
                if (live != null) {
                    live.close();
                }
            }
        }
    }

    /** Fails fast with exit code 3 when nothing listens at the target's host and port. */
    static void checkReachable(URI url) {
        int port = url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(url.getHost(), port), 3_000);
        } catch (IOException e) {
            throw new UnreachableException("the target " + url + " cannot be reached (" + e.getMessage() + ")");
        }
    }

    private static void writeScenarioCopy(Scenario scenario, Path dir) throws IOException {
        AtomicFiles.copy(scenario.file(), dir.resolve("scenario.yaml"));
    }
}
