package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ServiceProcess;
import io.loadsmith.tester.record.Histograms;
import io.loadsmith.tester.schedule.ArrivalSchedule;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Three {@code run --shard I/3 --start-at T} processes (child JVMs) against the reference scored service with
 * the real agent (shard 0 arms it, the others fetch its stalls by the shared run id), then {@code merge}, in
 * this JVM. Shard 2 runs on a monotonic clock shifted by {@value #SHIFT_SECONDS} s ({@code unshare --time
 * --monotonic}) where the kernel allows it. One load of 3 s at 100/s, run once for every test here.
 */
class ShardsIT {

    static final long SHIFT_SECONDS = 100_000;
    private static final double RATE = 100;
    private static final long DURATION_NANOS = 3_000_000_000L;
    private static final long CHILD_TIMEOUT_SECONDS = 180;

    @TempDir
    static Path dir;

    static Path merged;
    static int mergeExit;
    static String mergeErrors;
    static final List<Path> shards = new ArrayList<>();
    /** Why shard 2 ran on the ordinary clock; null when it ran shifted. */
    static String notShifted;

    @BeforeAll
    static void runThreeShardsAndMerge() throws Exception {
        Path root = ServiceProcess.findRoot(Path.of(""));
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(root);
        assertThat(jars.missing()).as("jars the test needs").isNull();
        notShifted = unshareRefusal();
        if (notShifted != null) {
            System.out.println("ShardsIT: shard 2 runs on the ordinary monotonic clock: " + notShifted);
        }
        try (ServiceProcess service = ServiceProcess.start(jars, 4, List.of(), dir.resolve("service.log"), 180)) {
            long startAt = System.currentTimeMillis() + 45_000; // three JVMs start on two busy cores: 20 s seen
            List<Process> children = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Path out = dir.resolve("shard-" + i);
                shards.add(out);
                List<String> prefix = i == 2 && notShifted == null
                        ? List.of("unshare", "--time", "--monotonic", Long.toString(SHIFT_SECONDS)) : List.of();
                children.add(ChildCli.start(prefix, dir.resolve("shard-" + i + ".console"), null, "run",
                        root.resolve("examples/scenarios/score-with-stalls.yaml").toString(), "--shard", i + "/3",
                        "--start-at", Long.toString(startAt), "--out", out.toString(), "--progress", "none",
                        "--set", "target.url=" + service.url(), "--set", "stalls.admin=" + service.admin().base(),
                        "--set", "stalls.mean_interval=1s", "--set", "load.rate=" + (int) RATE,
                        "--set", "load.duration=3s", "--set", "load.warmup=150", "--set", "load.grace=5s"));
            }
            for (int i = 0; i < 3; i++) {
                Process child = children.get(i);
                if (!child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
                assertThat(child.exitValue()).as("shard %d: %s", i,
                        Files.readString(dir.resolve("shard-" + i + ".console"))).isEqualTo(ExitCodes.OK);
            }
        }
        merged = dir.resolve("merged");
        StringWriter errors = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(new StringWriter(), true));
        cmd.setErr(new PrintWriter(errors, true));
        mergeExit = cmd.execute("merge", shards.get(0).toString(), shards.get(1).toString(), shards.get(2).toString(),
                "--out", merged.toString());
        mergeErrors = errors.toString();
    }

    @AfterAll
    static void forget() {
        shards.clear();
    }

    /** Why {@code unshare --time} cannot shift a child's monotonic clock here; null when it can. */
    static String unshareRefusal() {
        try {
            Process probe = new ProcessBuilder("unshare", "--time", "--monotonic", "1", "true").redirectErrorStream(true)
                    .start();
            if (!probe.waitFor(20, TimeUnit.SECONDS)) {
                probe.destroyForcibly();
                return "unshare --time did not end within 20 s";
            }
            String said = new String(probe.getInputStream().readAllBytes()).trim();
            return probe.exitValue() == 0 ? null : "unshare --time is refused here (exit " + probe.exitValue() + ": "
                    + said + ")";
        } catch (IOException e) {
            return "unshare cannot be run here (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static JsonNode results(Path folder) throws IOException {
        return new ObjectMapper().readTree(folder.resolve("results.json").toFile());
    }

    @Test
    void the_merged_shards_sent_exactly_the_single_process_schedule() throws Exception {
        long single = 0;
        ArrivalSchedule schedule = ArrivalSchedule.poisson(RATE, DURATION_NANOS, 1);
        while (schedule.nextOffsetNanos() >= 0) {
            single++;
        }

        assertThat(mergeExit).as(mergeErrors).isEqualTo(ExitCodes.OK);
        JsonNode counts = results(merged).at("/runs/0/counts");
        StringBuilder each = new StringBuilder();
        for (Path shard : shards) {
            JsonNode file = results(shard);
            each.append(shard.getFileName()).append(' ').append(file.at("/runs/0/counts")).append(' ')
                    .append(file.get("start")).append(' ').append(file.at("/runs/0/warnings")).append('\n');
        }
        assertThat(counts.get("scheduled").asLong()).as("merged %s of shards:%n%s", counts, each).isEqualTo(single);
        assertThat(counts.get("sent").asLong()).as("merged %s of shards:%n%s", counts, each).isEqualTo(single);
    }

    @Test
    void the_merged_histograms_are_the_sum_of_the_shards() throws Exception {
        Map<String, Histogram> sum = new HashMap<>();
        for (Path shard : shards) {
            MergeCommandTest.totals(shard).forEach((tag, h) -> sum.computeIfAbsent(tag, t -> Histograms.create()).add(h));
        }

        Map<String, Histogram> mergedTotals = MergeCommandTest.totals(merged);
        assertThat(mergedTotals.keySet()).isEqualTo(sum.keySet());
        for (String tag : sum.keySet()) {
            assertThat(mergedTotals.get(tag)).as(tag).isEqualTo(sum.get(tag));
        }
    }

    @Test
    void every_shard_met_the_stalls_shard_0_armed_and_the_merged_per_stall_counts_are_their_sum() throws Exception {
        List<JsonNode> runs = new ArrayList<>();
        for (Path shard : shards) {
            runs.add(results(shard).at("/runs/0"));
        }
        JsonNode mergedStalls = results(merged).at("/runs/0/stalls");
        String runId = runs.get(0).get("run_id").asText();

        assertThat(runId).startsWith("shards-");
        assertThat(mergedStalls).isNotEmpty();
        for (JsonNode run : runs) {
            assertThat(run.get("run_id").asText()).isEqualTo(runId);
            assertThat(run.get("stalls")).hasSameSizeAs(mergedStalls);
            assertThat(run.at("/stall_summary/missing")).isEmpty();
        }
        for (int s = 0; s < mergedStalls.size(); s++) {
            for (String field : List.of("sent_during", "intended_during", "in_flight_at_start", "overlapping")) {
                long total = 0;
                for (JsonNode run : runs) {
                    total += run.get("stalls").get(s).get(field).asLong();
                }
                assertThat(mergedStalls.get(s).get(field).asLong()).as("stall %d %s", s, field).isEqualTo(total);
            }
        }
    }

    @Test
    void a_shard_on_a_shifted_monotonic_clock_counts_its_sends_per_stall_through_its_own_clock_offset()
            throws Exception {
        Assumptions.assumeTrue(notShifted == null, () -> "skipped: " + notShifted);
        JsonNode plain = results(shards.get(1)).at("/runs/0");
        JsonNode shifted = results(shards.get(2)).at("/runs/0");
        long shiftNanos = SHIFT_SECONDS * 1_000_000_000L;

        // its own clock runs SHIFT_SECONDS ahead of the agent's: the offset (agent - tester) says so
        assertThat(shifted.get("clock_offset_ns").asLong() - plain.get("clock_offset_ns").asLong())
                .isBetween(-shiftNanos - 1_000_000_000L, -shiftNanos + 1_000_000_000L);
        assertThat(shifted.get("start_ns").asLong() - plain.get("start_ns").asLong())
                .isBetween(shiftNanos - 1_000_000_000L, shiftNanos + 1_000_000_000L);
        // through it, the same stalls land inside its run, where they land in the others'
        assertThat(shifted.at("/stall_summary/stalls_met").asInt()).isEqualTo(plain.at("/stall_summary/stalls_met").asInt())
                .isPositive();
        long intendedInside = 0;
        for (int s = 0; s < shifted.get("stalls").size(); s++) {
            JsonNode stall = shifted.get("stalls").get(s);
            JsonNode same = plain.get("stalls").get(s);
            assertThat(stall.get("met").asBoolean()).isEqualTo(same.get("met").asBoolean());
            // where the window lies from the counted start: the same on both clocks, to well within the stall
            long fromStart = stall.get("start_ns").asLong() - shifted.get("start_ns").asLong();
            long plainFromStart = same.get("start_ns").asLong() - plain.get("start_ns").asLong();
            assertThat(Math.abs(fromStart - plainFromStart)).as("stall %d", s).isLessThan(50_000_000L);
            intendedInside += stall.get("met").asBoolean() ? stall.get("intended_during").asLong() : 0;
        }
        assertThat(intendedInside).as("requests intended inside the stalls it met").isPositive();
    }
}
