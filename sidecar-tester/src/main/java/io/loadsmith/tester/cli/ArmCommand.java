package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;
import io.loadsmith.tester.profile.ReplayPlan;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Durations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code loadsmith arm}: POST /arm, a seeded plan, explicit windows, or a pause profile's replay. */
@Command(name = "arm", mixinStandardHelpOptions = true,
        description = {"Arm an agent with a new stall plan, starting now.",
            "The plan replaces any pending one: seeded, explicit windows, or a pause profile's replay."},
        footerHeading = "%nExamples:%n",
        footer = {
            "  loadsmith arm --admin http://127.0.0.1:7070 --seed 7 --mean-interval 4s --duration 100ms --min-gap 500ms --horizon 60s",
            "  loadsmith arm --admin http://127.0.0.1:7070 --stall 500ms:300ms --stall 2s:100ms --kind spin",
            "  loadsmith arm --admin http://127.0.0.1:7070 --replay profile.json --from 10m --to 20m --min-duration 5ms",
            "Durations take ns, us, ms, s, m, h."})
final class ArmCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    AdminMixin admin;

    @Option(names = "--seed", description = "Seed of the plan (default ${DEFAULT-VALUE})", defaultValue = "1")
    long seed;

    @Option(names = "--mean-interval", paramLabel = "DURATION", defaultValue = "4s",
            description = "Mean start-to-start gap (default ${DEFAULT-VALUE})")
    String meanInterval;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "100ms",
            description = "Length of every stall (default ${DEFAULT-VALUE})")
    String duration;

    @Option(names = "--min-gap", paramLabel = "DURATION", defaultValue = "500ms",
            description = "Shortest start-to-start gap (default ${DEFAULT-VALUE})")
    String minGap;

    @Option(names = "--horizon", paramLabel = "DURATION", defaultValue = "60s",
            description = "Plan stalls only within this time after arming (default ${DEFAULT-VALUE})")
    String horizon;

    @Option(names = "--kind", defaultValue = "block", description = "block, spin or freeze (the whole JVM stopped; default ${DEFAULT-VALUE})")
    String kind;

    @Option(names = "--stall", paramLabel = "OFFSET:DURATION",
            description = "An explicit stall window instead of a seeded plan; repeat for more")
    List<String> stalls = new ArrayList<>();

    @Option(names = "--replay", paramLabel = "PROFILE",
            description = "Replay a pause profile (docs/replaying-pauses.md) as explicit windows from now")
    Path replay;

    @Option(names = "--from", paramLabel = "DURATION",
            description = "With --replay: the first offset of the profile taken (default 0)")
    String from;

    @Option(names = "--to", paramLabel = "DURATION",
            description = "With --replay: offsets of the profile from here on are left out (default its span)")
    String to;

    @Option(names = "--min-duration", paramLabel = "DURATION",
            description = "With --replay: leave out pauses shorter than this (default 0)")
    String minDuration;

    @Option(names = "--speed", paramLabel = "FACTOR",
            description = "With --replay: play this much faster than recorded, offsets and durations divided by it (default 1)")
    Double speed;

    /** The seeded plan's options, which --stall and --replay replace. */
    private static final List<String> SEEDED = List.of("--seed", "--mean-interval", "--duration", "--min-gap", "--horizon");

    @Override
    public Integer call() throws AdminException {
        if (replay != null) {
            return armReplay();
        }
        for (String option : List.of("--from", "--to", "--min-duration", "--speed")) {
            if (given(option)) {
                throw new BadInputException(option + ": is only for --replay (a pause profile to replay)");
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        if (stalls.isEmpty()) {
            body.put("seed", seed);
            body.put("mean_interval_ms", millis("--mean-interval", meanInterval));
            body.put("duration_ms", millis("--duration", duration));
            body.put("min_gap_ms", millis("--min-gap", minGap));
            body.put("horizon_ms", millis("--horizon", horizon));
        } else {
            List<Map<String, Object>> windows = new ArrayList<>();
            for (String stall : stalls) {
                String[] parts = stall.split(":");
                if (parts.length != 2) {
                    throw new BadInputException("--stall " + stall + ": write it as OFFSET:DURATION, e.g. 500ms:300ms");
                }
                windows.add(Map.of("offset_ms", millis("--stall offset", parts[0]), "duration_ms",
                        millis("--stall duration", parts[1])));
            }
            body.put("stalls", windows);
        }
        body.put("kind", kind);
        JsonNode answer = admin.client().armJson(AdminCommands.PRETTY.valueToTree(body));
        var out = spec.commandLine().getOut();
        out.printf("armed %s: run_id %s, armed_at_ns %s, %d stalls planned%n", admin.admin,
                answer.path("run_id").asText("?"), answer.path("armed_at_ns").asText("?"),
                answer.path("stalls").size());
        AdminCommands.printStalls(out, answer.get("stalls"));
        return ExitCodes.OK;
    }

    /** {@code --replay}: the profile's plan ({@link ReplayPlan}), armed now, each window with what it replays. */
    private int armReplay() throws AdminException {
        if (!stalls.isEmpty()) {
            throw new BadInputException("--stall: cannot go with --replay (which gives the windows): give one of them");
        }
        for (String option : SEEDED) {
            if (given(option)) {
                throw new BadInputException(option + ": is for a seeded plan, and --replay replays a profile instead: "
                        + "give one of them");
            }
        }
        StallKind stallKind = kind(kind);
        long fromNanos = from == null ? 0 : nanos("--from", from);
        Long toNanos = to == null ? null : nanos("--to", to);
        long minNanos = minDuration == null ? 0 : nanos("--min-duration", minDuration);
        if (speed != null && !(speed > 0 && Double.isFinite(speed))) {
            throw new BadInputException("--speed must be > 0 (got " + speed + ")");
        }
        ReplayPlan plan = ReplayPlan.read(replay, new ReplayPlan.ReplayRange(fromNanos, toNanos, minNanos,
                speed == null ? 1.0 : speed, stallKind));
        JsonNode answer = admin.client().armJson(AdminClient.explicitBody(plan.plan().stalls(), stallKind, null));
        var out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "armed %s: run_id %s, armed_at_ns %s, %d stalls planned, replaying %d pauses of %s%n",
                admin.admin, answer.path("run_id").asText("?"), answer.path("armed_at_ns").asText("?"),
                answer.path("stalls").size(), plan.pauses(), replay);
        AdminCommands.printStalls(out, answer.get("stalls"));
        out.println("  each window replays (offset in the profile, source: label):");
        for (int i = 0; i < plan.replayed().size(); i++) {
            RunResult.Replayed r = plan.replayed().get(i);
            out.printf(Locale.ROOT, "  %5d  %.3f ms %s: %s%n", i, r.offsetMs(), r.source(), r.label());
        }
        return ExitCodes.OK;
    }

    private boolean given(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /** {@code --kind}: block, spin or freeze. */
    private static StallKind kind(String text) {
        try {
            return StallKind.fromWireName(text);
        } catch (RuntimeException e) {
            throw new BadInputException("--kind must be block, spin or freeze (got " + text + ")");
        }
    }

    private static long nanos(String option, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(option + " " + e.getMessage());
        }
    }

    static double millis(String option, String text) {
        try {
            return Durations.parse(text) / 1e6;
        } catch (IllegalArgumentException e) {
            throw new BadInputException(option + " " + e.getMessage());
        }
    }
}
