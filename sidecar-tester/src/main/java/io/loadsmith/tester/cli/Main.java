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
            "Exit codes: 0 ok, 1 an SLO failed, 2 bad input, 3 target or agent unreachable, 4 out of memory "
                + "(after a run's results: loadsmith report DIR finishes the report)."})
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
        Thread.setDefaultUncaughtExceptionHandler(Main::uncaught);
        int code;
        try {
            code = commandLine().execute(args);
        } catch (OutOfMemoryError e) {
            // a report that ran out is caught where it is drawn (RunReport, ReportCommand); this is anything else
            System.err.println(outOfMemory(Runtime.getRuntime().maxMemory(), null));
            code = ExitCodes.OUT_OF_MEMORY;
        }
        System.exit(code);
    }

    /**
     * A thread that dies of a heap that ran out (the event loop, mid-run) leaves a run that can never end, nor
     * stop on Ctrl-C: say so and end the process at once, exit 4, rather than hang. Anything else is printed as
     * the JVM would.
     */
    private static void uncaught(Thread thread, Throwable e) {
        if (e instanceof OutOfMemoryError) {
            System.err.println(outOfMemory(Runtime.getRuntime().maxMemory(), thread.getName()));
            System.err.flush();
            Runtime.getRuntime().halt(ExitCodes.OUT_OF_MEMORY);
        }
        System.err.print("Exception in thread \"" + thread.getName() + "\" ");
        e.printStackTrace();
    }

    /**
     * The line for a heap that ran out in a command, outside a report (for a run: before results.json was
     * written), in {@code thread} (null: the command's own).
     */
    static String outOfMemory(long maxHeapBytes, String thread) {
        long mib = Math.max(1, maxHeapBytes >> 20);
        return String.format(java.util.Locale.ROOT, "loadsmith: out of memory (Java heap, at most %d MiB%s): the command "
                + "did not finish (a run's folder without results.json holds a run that did not finish: its requests.bin "
                + "and latency.hlog stop where it was); give the JVM more memory: LOADSMITH_JAVA_OPTS=-Xmx%dm",
                mib, thread == null ? "" : ", in thread " + thread,
                io.loadsmith.tester.session.ReportOutOfMemoryException.suggestedHeapMib(mib));
    }
}
