package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ServiceProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Production's pauses replayed in staging, end to end with two real services and their agents: pauses made at
 * known moments on the first (two {@code kill -STOP}/{@code -CONT} brackets and a {@code jcmd GC.run}) are
 * recorded into a profile by {@code loadsmith pauses record}; the profile is replayed with {@code kind: freeze}
 * under an open loop on the second; its windows keep the profile's offsets (one from the other) and lengths
 * within 2 ms, and {@code loadsmith verify} agrees with every per-stall count.
 */
class FreezeReplayIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MS = 1_000_000L;
    /** The stops made on the first service: when (ms after the recording began) and how long, in ms. */
    private static final long[][] STOPS = {{1_000, 150}, {2_600, 80}};
    private static final long GC_AT_MS = 2_000;
    /** The replay's min_duration: shorter pauses of the profile (safepoints of the idle JVM) are left out. */
    private static final long MIN_REPLAYED_MS = 20;
    /**
     * How far the sleeper's window of a stop may be from the stop: it starts up to a park (1 ms) early or late,
     * and ends when the sleeper wakes after the process goes on, which takes a few ms on a busy box.
     */
    private static final double SLEEPER_EARLY_MS = 2.0;
    private static final double SLEEPER_LATE_MS = 10.0;

    @Test
    void pauses_recorded_from_one_service_replay_as_freezes_on_another_within_2_ms(@TempDir Path dir) throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Path profile = dir.resolve("profile.json");
        Bracket[] brackets = new Bracket[STOPS.length];
        try (ServiceProcess production = ServiceProcess.start(jars, 4, List.of(), dir.resolve("production.log"), 180,
                "observe=always")) {
            StringWriter said = new StringWriter();
            long begun = System.nanoTime();
            CompletableFuture<Integer> recording = CompletableFuture.supplyAsync(() -> cli(said).execute("pauses",
                    "record", "--admin", production.admin().base().toString(), "--for", "4s", "--every", "500ms",
                    "--out", profile.toString()));
            for (int i = 0; i < STOPS.length; i++) {
                if (i == 1) {
                    at(begun + GC_AT_MS * MS);
                    assertThat(command("jcmd", Long.toString(production.pid()), "GC.run")).isZero();
                }
                at(begun + STOPS[i][0] * MS);
                long stopSent = System.nanoTime();
                assertThat(command("kill", "-STOP", Long.toString(production.pid()))).isZero();
                long stopDone = System.nanoTime();
                at(stopSent + STOPS[i][1] * MS);
                long contSent = System.nanoTime();
                assertThat(command("kill", "-CONT", Long.toString(production.pid()))).isZero();
                brackets[i] = new Bracket(stopSent, stopDone, contSent, System.nanoTime());
            }
            assertThat(recording.get(60, TimeUnit.SECONDS)).as("pauses record: %s", said).isEqualTo(ExitCodes.OK);
        }

        List<JsonNode> made = madePauses(JSON.readTree(profile.toFile()), brackets);

        JsonNode collection = diagnosticCollection(JSON.readTree(profile.toFile()));
        // replayed up to the second stop's end: a busy box's own host pauses recorded later must not lengthen
        // the plan past the run (the collection is made before the second stop)
        long toMs = (long) Math.ceil(made.get(1).get("offset_ms").asDouble() + made.get(1).get("duration_ms").asDouble()) + 1;
        JsonNode run = replayAsFreezes(root, jars, dir, profile, toMs);
        JsonNode rows = run.get("stalls");
        JsonNode first = rows.get(0);
        for (JsonNode row : rows) {
            JsonNode replayed = row.get("replayed");
            double startMs = (row.get("start_ns").asLong() - first.get("start_ns").asLong()) / 1e6;
            double lengthMs = (row.get("end_ns").asLong() - row.get("start_ns").asLong()) / 1e6;
            String what = "window " + row.get("index") + " replaying " + replayed;
            System.out.printf("FreezeReplayIT %s: %.3f ms from the first (planned %.3f), %.3f ms long (planned %.3f)%n", what,
                    startMs, replayed.get("planned_offset_ms").asDouble() - first.at("/replayed/planned_offset_ms").asDouble(),
                    lengthMs, replayed.get("planned_duration_ms").asDouble());
            assertThat(startMs).as(what).isCloseTo(replayed.get("planned_offset_ms").asDouble()
                    - first.at("/replayed/planned_offset_ms").asDouble(), within(2.0));
            assertThat(lengthMs).as(what).isCloseTo(replayed.get("planned_duration_ms").asDouble(), within(2.0));
            assertThat(replayed.get("planned_duration_ms").asDouble()).as(what).isEqualTo(replayed.get("duration_ms").asDouble());
            assertThat(row.get("held").asLong()).as("held by a gate in %s", what).isZero();
        }
        for (JsonNode stop : made) {
            assertThat(replayed(stop, rows)).as("the stop %s among the replayed windows %s (replayed to %d ms; %s; the agent: %s)",
                    stop, rows, toMs, run.path("stall_summary"), agentLines(dir.resolve("staging.log"))).isTrue();
        }
        assertThat(replayed(collection, rows)).as("the jcmd GC.run collection (%s) among the replayed windows (those of %d ms or more)",
                collection, MIN_REPLAYED_MS).isEqualTo(collection.get("duration_ms").asDouble() >= MIN_REPLAYED_MS);

        StringWriter verified = new StringWriter();
        assertThat(cli(verified).execute("verify", dir.resolve("out").toString())).as("verify: %s", verified)
                .isEqualTo(ExitCodes.OK);
        assertThat(verified.toString()).contains("figures agree");
    }

    private static List<String> agentLines(Path log) throws IOException {
        return Files.readAllLines(log).stream().filter(line -> line.contains("loadsmith")).toList();
    }

    /** True when {@code pause} starts inside one of the run's windows (a window may merge pauses that touch). */
    private static boolean replayed(JsonNode pause, JsonNode rows) {
        double offset = pause.get("offset_ms").asDouble();
        for (JsonNode row : rows) {
            double from = row.at("/replayed/planned_offset_ms").asDouble();
            if (offset >= from && offset < from + row.at("/replayed/planned_duration_ms").asDouble()) {
                return true;
            }
        }
        return false;
    }

    /**
     * When a stop was made, as the test saw it: the process stopped while its {@code kill -STOP} ran (between
     * {@code stopSent} and {@code stopDone}) and went on while its {@code kill -CONT} ran. Starting a
     * {@code kill} takes a few ms on a quiet box and tens on a busy one, so the stop's length is only known
     * to lie between {@link #shortestMs} and {@link #longestMs}.
     */
    private record Bracket(long stopSent, long stopDone, long contSent, long contDone) {
        double shortestMs() {
            return (contSent - stopDone) / 1e6;
        }

        double longestMs() {
            return (contDone - stopSent) / 1e6;
        }
    }

    /**
     * The profile's host pauses that are the two stops made, in order: each as long as its bracket allows, and
     * as far from the other as the brackets allow, give or take the sleeper's error ({@link #SLEEPER_EARLY_MS},
     * {@link #SLEEPER_LATE_MS}). Both are asked, and of the pairs that fit the one nearest the
     * brackets' middles is taken, because a busy box gives the sleeper host pauses of its own, some as long as a
     * stop (a throttled one, about 100 ms every 200 ms).
     */
    private static List<JsonNode> madePauses(JsonNode profile, Bracket[] brackets) {
        double closest = (brackets[1].stopSent - brackets[0].stopDone) / 1e6 - 2 * SLEEPER_EARLY_MS;
        double farthest = (brackets[1].stopDone - brackets[0].stopSent) / 1e6 + 2 * SLEEPER_EARLY_MS;
        List<JsonNode> best = null;
        double bestMiss = Double.MAX_VALUE;
        for (JsonNode first : hostPausesAsLongAs(profile, brackets[0])) {
            for (JsonNode second : hostPausesAsLongAs(profile, brackets[1])) {
                double distance = second.get("offset_ms").asDouble() - first.get("offset_ms").asDouble();
                // a throttled box has host pauses of its own, some within the brackets: the pair nearest their middles
                double miss = Math.abs(distance - (closest + farthest) / 2) + miss(first, brackets[0]) + miss(second, brackets[1]);
                if (distance >= closest && distance <= farthest && miss < bestMiss) {
                    best = List.of(first, second);
                    bestMiss = miss;
                }
            }
        }
        if (best != null) {
            return best;
        }
        throw new AssertionError(String.format("no host pauses of %.1f-%.1f and %.1f-%.1f ms, %.1f-%.1f ms apart, in %s",
                brackets[0].shortestMs() - SLEEPER_EARLY_MS, brackets[0].longestMs() + SLEEPER_LATE_MS,
                brackets[1].shortestMs() - SLEEPER_EARLY_MS, brackets[1].longestMs() + SLEEPER_LATE_MS,
                closest, farthest, profile));
    }

    private static double miss(JsonNode pause, Bracket bracket) {
        return Math.abs(pause.get("duration_ms").asDouble() - (bracket.shortestMs() + bracket.longestMs()) / 2);
    }

    private static List<JsonNode> hostPausesAsLongAs(JsonNode profile, Bracket bracket) {
        List<JsonNode> pauses = new ArrayList<>();
        for (JsonNode pause : profile.get("pauses")) {
            double duration = pause.get("duration_ms").asDouble();
            if (pause.get("source").asText().contains("host") && duration >= bracket.shortestMs() - SLEEPER_EARLY_MS
                    && duration <= bracket.longestMs() + SLEEPER_LATE_MS) {
                pauses.add(pause);
            }
        }
        return pauses;
    }

    /** The profile's pause of the {@code jcmd GC.run} made on the first service: a collection the JVM names after the command. */
    private static JsonNode diagnosticCollection(JsonNode profile) {
        for (JsonNode pause : profile.get("pauses")) {
            if (pause.get("source").asText().equals("gc") && pause.get("label").asText().contains("Diagnostic Command")) {
                return pause;
            }
        }
        throw new AssertionError("no collection of jcmd GC.run (\"Diagnostic Command\") in " + profile);
    }

    /**
     * A 5 s open loop on a second service whose agent replays, as freezes, {@code profile}'s pauses of 20 ms or
     * more that start before {@code toMs}.
     */
    private static JsonNode replayAsFreezes(Path root, ServiceProcess.Jars jars, Path dir, Path profile, long toMs)
            throws Exception {
        try (ServiceProcess staging = ServiceProcess.start(jars, 4, List.of(), dir.resolve("staging.log"), 180)) {
            Path scenario = Files.writeString(dir.resolve("replay.yaml"), """
                    name: freeze-replay
                    target: {url: "%s"}
                    stalls: {admin: "%s", replay: profile.json, to: %dms, min_duration: %dms, kind: freeze}
                    load: {model: open, arrivals: constant, rate: 200, duration: 5s, warmup: 200, grace: 1s}
                    journeys:
                      - name: score
                        data: %s
                        steps:
                          - request: GET /score/${customer_id}
                            check: {status: 200}
                    """.formatted(staging.url(), staging.admin().base(), toMs, MIN_REPLAYED_MS,
                    root.resolve("examples/scenarios/data/customers.csv")));
            StringWriter said = new StringWriter();
            int exit = cli(said).execute("run", scenario.toString(), "--out", dir.resolve("out").toString(), "--progress", "none");
            assertThat(exit).as("run: %s", said).isEqualTo(ExitCodes.OK);
        }
        return JSON.readTree(dir.resolve("out/results.json").toFile()).at("/runs/0");
    }

    private static CommandLine cli(StringWriter said) {
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(said, true));
        cmd.setErr(new PrintWriter(said, true));
        return cmd;
    }

    /** Parks until the monotonic clock reaches {@code nanos}: the moment a pause is to be made, not a wait for a condition. */
    private static void at(long nanos) {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private static int command(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
