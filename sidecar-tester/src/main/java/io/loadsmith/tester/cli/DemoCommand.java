package io.loadsmith.tester.cli;

import io.loadsmith.tester.experiment.Demo;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.scenario.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code loadsmith demo}: starts the reference scored service with the agent in a child JVM, runs a closed,
 * a paced and an open tester against it with the same stalls, prints the side-by-side table and the
 * per-stall counts, writes results.json and the report, and stops the service.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Stall the reference scored service (agent attached, child JVM, free ports), run a closed,",
            "a paced and an open tester against it with the same stalls, and show which one saw them (about 2 minutes)."},
        footerHeading = "%nExamples:%n",
        footer = {"  loadsmith demo", "  loadsmith demo --duration 10s --out results/quick-demo",
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
        Demo.Options options = Demo.Options.defaults().withDuration(durationNanos).withWarmup(warmup);
        options = new Demo.Options(rate, options.pacedConnections(), options.durationNanos(), options.warmupRequests(),
                options.stallNanos(), options.meanIntervalNanos(), options.seed(), options.serviceThreads(),
                options.objectiveNanos());
        Path dir = CliDirs.prepare(out, "demo");
        console.println("loadsmith demo: " + Demo.machineLine());
        ServiceProcess.Jars jars = jars(console);
        console.println("starting the scoring service with the loadsmith agent (first start builds its shop database)...");
        console.flush();
        try (ServiceProcess service = ServiceProcess.start(jars, options.serviceThreads(), List.of(),
                dir.resolve("service.log"), 180)) {
            console.printf("service %s (pid %d), agent admin API %s; stalls of %d ms about every %d ms (seed %d)%n",
                    service.url(), service.pid(), service.admin().base(), options.stallNanos() / 1_000_000,
                    options.meanIntervalNanos() / 1_000_000, options.seed());
            console.flush();
            Demo.run(service, options, dir, console);
        }
        ReportCommand.writeAfterRun(dir, console);
        return ExitCodes.OK;
    }

    /** The agent and service jars, built first if they are missing. */
    private static ServiceProcess.Jars jars(PrintWriter console) throws IOException, InterruptedException {
        Path root = root();
        ServiceProcess.Jars found = ServiceProcess.Jars.of(root);
        if (found.missing() != null) {
            console.println("building the agent and the scoring service (first run only)...");
            console.flush();
            String wrapper = System.getProperty("os.name").toLowerCase().contains("win") ? "mvnw.cmd" : "./mvnw";
            Process build = new ProcessBuilder(wrapper, "-B", "-q", "-DskipTests", "package", "-pl",
                    "agent,examples/scoring-service", "-am").directory(root.toFile()).inheritIO().start();
            if (build.waitFor() != 0 || found.missing() != null) {
                throw new UnreachableException("cannot build what the demo needs: " + found.missing());
            }
        }
        return found;
    }

    private static Path root() {
        try {
            Path jar = Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return ServiceProcess.findRoot(jar);
        } catch (URISyntaxException | RuntimeException e) {
            return ServiceProcess.findRoot(Path.of(""));
        }
    }
}
