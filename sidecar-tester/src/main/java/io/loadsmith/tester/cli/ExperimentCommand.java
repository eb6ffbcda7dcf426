package io.loadsmith.tester.cli;

import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.experiment.ExperimentSpec;
import io.loadsmith.tester.session.Demo;
import io.loadsmith.tester.session.ExperimentRunner;
import io.loadsmith.tester.session.RunStops;
import io.loadsmith.tester.session.UnreachableException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code loadsmith experiment FILE.yaml}: rounds x arms x stall on/off, paired (docs/experiments.md). */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = {"Run every arm of an experiment in rounds, stall on and off.",
            "Every arm (tester) runs in every round, stall on and off, with one seed per round, so runs pair up, the order rotating between rounds; then per-arm figures and paired "
                + "verdicts (docs/experiments.md)."},
        footerHeading = "%nExamples:%n",
        footer = {"  loadsmith experiment examples/experiments/quick-shape.yaml",
            "  loadsmith experiment examples/experiments/lab-shape.yaml --out results/lab"})
public final class ExperimentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The experiment file (YAML)")
    Path file;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write results (default: results/<name>-<time>)")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter console = spec.commandLine().getOut();
        ExperimentSpec experiment = ExperimentSpec.parse(file);
        Path dir = CliDirs.prepare(out, experiment.name());
        console.println("loadsmith experiment " + experiment.name() + ": " + Demo.machineLine());
        console.printf("%d rounds x %d arms x stall %s, %d s each -> %s%n", experiment.rounds(), experiment.arms().size(),
                experiment.stallStates().size() == 2 ? "on and off" : experiment.stallStates().get(0) ? "on" : "off",
                experiment.durationNanos() / 1_000_000_000L, dir);
        console.flush();
        RunStops stops = new RunStops();
        try (StopHook hook = StopHook.install(stops::stop, StopHook.SESSION_WAIT_MILLIS, spec.commandLine().getErr(),
                "stopping: no new requests; writing the runs so far to " + dir + ", then stopping the service")) {
            ExperimentRunner.run(experiment, dir, console, stops);
        } catch (AdminException e) {
            if (e.badInput()) {
                throw new BadInputException(e.getMessage());
            }
            throw new UnreachableException(e.getMessage());
        }
        return ExitCodes.OK;
    }
}
