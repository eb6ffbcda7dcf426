package io.loadsmith.tester.cli;

import io.loadsmith.tester.scenario.Durations;
import io.loadsmith.tester.session.Demo;
import io.loadsmith.tester.session.RunStops;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code loadsmith demo}: starts the reference scored service with the agent in a child JVM, runs a closed,
 * a paced and an open tester against it with the same stalls, prints the side-by-side table and the
 * per-stall counts, writes results.json and the report, and stops the service.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Show which of three testers sees the stalls of a real service.",
            "Starts the reference scored service in a child JVM with the agent attached, on free ports, runs a closed, a paced and an "
                + "open tester against it with the same stalls, and shows which one saw them (about 2 minutes)."},
        footerHeading = "%nExamples:%n",
        footer = {"  loadsmith demo", "  loadsmith demo --duration 10s --out results/quick-demo",
            "  loadsmith demo --grpc",
            "", "Set LOADSMITH_AGENT_JAR to use an agent jar other than agent/target/loadsmith-agent.jar."})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write results (default: results/demo-<time>)")
    Path out;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "25s",
            description = "Counted run of each tester (default ${DEFAULT-VALUE})")
    String duration;

    @Option(names = "--rate", paramLabel = "PER_SECOND", defaultValue = "200",
            description = "Rate of the open loop and target of the paced loop (default ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--warmup", paramLabel = "REQUESTS", defaultValue = "400",
            description = "Warm-up requests of each tester, not counted (default ${DEFAULT-VALUE})")
    long warmup;

    @Option(names = "--grpc", description = "Send unary gRPC calls (scoring.Scorer/Score over HTTP/2) to the service's gRPC port"
            + " instead of GET /score/{id}")
    boolean grpc;

    @Override
    public Integer call() throws Exception {
        PrintWriter console = spec.commandLine().getOut();
        long durationNanos;
        try {
            durationNanos = Durations.parse(duration);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--duration " + duration + ": " + e.getMessage());
        }
        if (!(rate > 0) || durationNanos <= 0) {
            throw new BadInputException("--rate and --duration must be > 0");
        }
        Demo.DemoOptions options = Demo.DemoOptions.of(rate, durationNanos, warmup).withGrpc(grpc);
        Path dir = CliDirs.prepare(out, "demo");
        console.println("loadsmith demo: " + Demo.machineLine());
        RunStops stops = new RunStops();
        try (StopHook hook = StopHook.install(stops::stop, StopHook.SESSION_WAIT_MILLIS, spec.commandLine().getErr(),
                "stopping: no new requests; writing what ran so far to " + dir + ", then stopping the service")) {
            Demo.run(options, dir, console, stops);
        }
        return ExitCodes.OK;
    }
}
