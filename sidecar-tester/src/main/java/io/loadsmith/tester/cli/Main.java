package io.loadsmith.tester.cli;

import io.loadsmith.stall.BuildInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code loadsmith}: the command line (docs/cli.md). */
@Command(name = "loadsmith", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Shows how far a load test's numbers are from what users saw when a JVM service paused "
            + "(coordinated omission): open, closed and paced testers side by side, with stalls you control.",
        subcommands = {DemoCommand.class, RunCommand.class, ExperimentCommand.class, ReportCommand.class, ArmCommand.class, DisarmCommand.class, MergeCommand.class,
            StallsCommand.class, ClockCommand.class, PausesCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class,
            VerifyCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {
            "  loadsmith run examples/scenarios/sim-coordinated-omission.yaml",
            "  loadsmith run score.yaml --set load.rate=800",
            "  loadsmith stalls --admin http://127.0.0.1:7070",
            "",
            "Exit codes: 0 ok, 1 an SLO failed, 2 bad input, 3 target or agent unreachable."})
public final class Main implements java.util.concurrent.Callable<Integer> {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.BAD_INPUT;
    }

    Main() {
    }

    /** {@code loadsmith --version}: the version and the commit the CLI was built from. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"loadsmith " + BuildInfo.current().describe()};
        }
    }

    /** The configured command line (for tests: parse or execute without exiting). */
    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new Main());
        // every command's help wraps at the terminal's width (80 columns when it has none)
        cmd.setUsageHelpAutoWidth(true);
        cmd.setExecutionExceptionHandler(new ErrorHandler());
        cmd.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("loadsmith: " + ex.getMessage());
            c.getErr().println("(try: loadsmith " + (c == ex.getCommandLine().getParent() ? "" : c.getCommandName() + " ") + "--help)");
            return ExitCodes.BAD_INPUT;
        });
        return cmd;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
