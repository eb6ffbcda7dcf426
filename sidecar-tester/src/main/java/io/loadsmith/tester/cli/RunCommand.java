package io.loadsmith.tester.cli;

import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.scenario.Scenario;
import io.loadsmith.tester.scenario.ScenarioParser;
import io.loadsmith.tester.session.RunReport;
import io.loadsmith.tester.session.ScenarioRun;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
            "Exit codes: 0 ok, 1 an SLO failed, 2 bad input (file:line: key message), 3 target or agent unreachable,",
            "  or the target or the agent stopped answering during the run (target.give_up_after)."})
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
        long waitMillis = tester.graceNanos() / 1_000_000 + HOOK_MARGIN_MILLIS;
        String message = String.format("stopping: no new requests; waiting up to %.1f s for those in flight, then writing %s",
                tester.graceNanos() / 1e9, dir);
        try (StopHook hook = StopHook.install(control::stop, waitMillis, spec.commandLine().getErr(), message)) {
            return runAndWrite(scenario, tester, control, dir);
        }
    }

    private int runAndWrite(Scenario scenario, TesterSpec tester, RunControl control, Path dir) throws Exception {
        var stdout = spec.commandLine().getOut();
        stdout.printf("loadsmith run %s: %s tester, %s -> %s%n", scenario.name(), tester.model().wireName(),
                scenario.target().simulated() ? "simulated target" : scenario.target().url(), dir);
        stdout.flush();
        boolean line = "line".equals(progress) || ("auto".equals(progress) && System.console() != null);
        ScenarioRun.Outcome run = ScenarioRun.run(scenario, tester, control, dir,
                "none".equals(progress) ? null : (counts, live) -> new Progress(counts, live, stdout, line));
        stdout.println();
        ConsoleTable.print(stdout, run.result(), run.verdicts());
        if (run.aligned()) {
            ScenarioRun.printPerStall(stdout, dir, scenario, run);
        }
        RunReport.write(dir, stdout);
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
