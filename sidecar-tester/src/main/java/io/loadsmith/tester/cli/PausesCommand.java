package io.loadsmith.tester.cli;

import io.loadsmith.tester.profile.GcLogReader;
import io.loadsmith.tester.profile.PauseProfile;
import io.loadsmith.tester.profile.PauseProfiles;
import io.loadsmith.tester.scenario.Durations;
import io.loadsmith.tester.session.PauseRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadsmith pauses}: pause profiles, the real pauses of a service to replay (docs/replaying-pauses.md). */
@Command(name = "pauses", mixinStandardHelpOptions = true,
        description = {"Make a pause profile of the pauses a service really had.",
            "A profile is replayed as stalls; each pause is an offset from the service's start, read from a GC log or recorded from an agent "
                + "(docs/replaying-pauses.md)."},
        subcommands = {PausesCommand.FromGcLog.class, PausesCommand.Record.class})
final class PausesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.BAD_INPUT;
    }

    @Command(name = "from-gc-log", mixinStandardHelpOptions = true,
            description = {"Read a JDK's unified GC log into a pause profile.",
                "It reads the logs of JDK 17 to 25 and of every collector. Log with "
                    + "-Xlog:gc*,safepoint:file=gc.log:uptime,level,tags (uptime, uptimemillis or uptimenanos); "
                    + "offset 0 is the JVM's start. Lines it does not understand are counted and shown, never dropped "
                    + "silently."},
            footerHeading = "%nExample:%n", footer = "  loadsmith pauses from-gc-log gc.log --out profile.json")
    static final class FromGcLog implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "GC_LOG", description = "The unified GC log")
        Path log;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The profile to write (JSON)")
        Path out;

        @Override
        public Integer call() throws IOException {
            if (!Files.isRegularFile(log)) {
                throw new BadInputException(log + ": no such file");
            }
            PauseProfile profile = GcLogReader.read(log);
            PauseProfiles.write(out, profile);
            summary(spec.commandLine().getOut(), profile, out);
            return ExitCodes.OK;
        }
    }

    @Command(name = "record", mixinStandardHelpOptions = true,
            description = {"Record the pauses an agent observes into a pause profile.",
                "It polls the agent's GET /pauses from now, for --for; offset 0 is the recording's start. The profile is written after "
                    + "every poll that brought pauses, so Ctrl-C or a crash loses nothing already fetched; an agent "
                    + "that restarts or stops answering is said so, and read again when it answers. Run the agent "
                    + "with observe=always to record between runs."},
            footerHeading = "%nExample:%n",
            footer = "  loadsmith pauses record --admin http://127.0.0.1:7070 --for 1h --out profile.json")
    static final class Record implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @picocli.CommandLine.Mixin
        AdminMixin admin;

        @Option(names = "--for", required = true, paramLabel = "DURATION", description = "How long to record (e.g. 1h, 90s)")
        String duration;

        @Option(names = "--every", defaultValue = "1s", paramLabel = "DURATION",
                description = "How often to fetch the agent's pauses (default ${DEFAULT-VALUE})")
        String every;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The profile to write (JSON)")
        Path out;

        @Override
        public Integer call() throws Exception {
            long forNanos = positive("--for", duration);
            long everyNanos = positive("--every", every);
            PauseRecording recording = new PauseRecording(admin.client(), out, spec.commandLine().getErr());
            PauseProfile profile;
            try (StopHook hook = StopHook.install(recording::stop, 10_000, spec.commandLine().getErr(),
                    "stopping: a last fetch of the agent's pauses, then writing " + out)) {
                profile = recording.run(forNanos, everyNanos);
            }
            summary(spec.commandLine().getOut(), profile, out);
            return ExitCodes.OK;
        }

        private static long positive(String option, String text) {
            long nanos;
            try {
                nanos = Durations.parse(text);
            } catch (IllegalArgumentException e) {
                throw new BadInputException(option + " " + e.getMessage());
            }
            if (nanos <= 0) {
                throw new BadInputException(option + " must be > 0 (got " + text + ")");
            }
            return nanos;
        }
    }

    /** "gc.log (G1, uptime ±1 ms): 130 pauses over 4.2 s ...", then the unread lines and the file written. */
    static void summary(PrintWriter w, PauseProfile profile, Path out) {
        PauseProfile.Origin origin = profile.origin();
        Map<String, Integer> bySource = new TreeMap<>();
        double longest = 0;
        double total = 0;
        for (PauseProfile.Pause p : profile.pauses()) {
            bySource.merge(p.source(), 1, Integer::sum);
            longest = Math.max(longest, p.durationMs());
            total += p.durationMs();
        }
        String what = origin.admin() != null ? origin.admin() + " (recorded"
                : origin.file() + " (" + (origin.collector() == null ? "collector not named" : origin.collector()) + ", "
                + origin.decoration();
        w.printf(Locale.ROOT, "%s, offsets +-%s ms): %d pauses %s over %.1f s, %.1f ms paused in all"
                        + " (%.2f%%), the longest %.3f ms%n", what,
                trim(profile.resolutionMs()), profile.pauses().size(), bySource, profile.spanMs() / 1e3, total,
                profile.spanMs() > 0 ? 100 * total / profile.spanMs() : 0, longest);
        PauseProfile.Unread unread = profile.unread();
        if (unread.lines() > 0) {
            w.printf(Locale.ROOT, "%d lines not understood or not placed (no decoration, a form not known, or a"
                    + " collection no safepoint fits), the first:%n", unread.lines());
            unread.first().forEach(l -> w.printf(Locale.ROOT, "  line %d: %s%n", l.line(), l.text()));
        }
        w.printf(Locale.ROOT, "wrote %s%n", out);
    }

    private static String trim(double ms) {
        return ms >= 1 ? String.format(Locale.ROOT, "%.0f", ms) : String.format(Locale.ROOT, "%.6f", ms).replaceAll("0+$", "");
    }
}
