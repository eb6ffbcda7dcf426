package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;
import io.loadsmith.tester.schedule.ArrivalScheduleTest;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code run --shard I/N} end to end on simulated targets (virtual clock): the shards of a run together send
 * exactly the single run's arrivals, each shard is a Poisson process at rate/N, and bad shards are refused.
 */
class ShardRunTest {

    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private static final String POISSON = """
            name: sharded
            target:
              simulate: {servers: 64, service_time: 1ms}
            load: {model: open, arrivals: poisson, rate: 2000, duration: 3s, grace: 1s, seed: 11}
            """;

    private static final String RAMP = """
            name: sharded-ramp
            target:
              simulate: {servers: 64, service_time: 1ms}
            load:
              model: open
              grace: 1s
              seed: 5
              stages: [{duration: 1s, target: 3000}, {duration: 1s, target: 3000}, {duration: 1s, target: 200}]
            """;

    private int run(String... args) {
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(new StringWriter(), true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    private Path scenario(String yaml) throws Exception {
        Path file = dir.resolve("scenario.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    /** The intended times of a run folder's requests, as offsets from its counted start, sorted. */
    static long[] intendedOffsets(Path runDir) throws Exception {
        List<Long> offsets = new ArrayList<>();
        try (RequestLog.Reader reader = RequestLog.read(runDir.resolve(RequestLog.FILE_NAME))) {
            while (reader.hasNext()) {
                RequestRecord r = reader.next();
                offsets.add(r.intendedNanos() - reader.runStartNanos());
            }
        }
        long[] sorted = offsets.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(sorted);
        return sorted;
    }

    /** Runs the N shards of file; their intended offsets, one array per shard. */
    private List<long[]> shards(Path file, int shards) throws Exception {
        List<long[]> each = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            Path out = dir.resolve("n" + shards + "-" + i);
            assertThat(run("run", file.toString(), "--shard", i + "/" + shards, "--out", out.toString(),
                    "--progress", "none")).as(err.toString()).isEqualTo(ExitCodes.OK);
            each.add(intendedOffsets(out));
        }
        return each;
    }

    private static long[] union(List<long[]> shards) {
        return shards.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void the_shards_of_a_poisson_run_send_exactly_its_intended_times_each_a_poisson_process_at_rate_over_n(
            int shards) throws Exception {
        Path file = scenario(POISSON);
        Path single = dir.resolve("single");
        assertThat(run("run", file.toString(), "--out", single.toString(), "--progress", "none")).isEqualTo(0);

        List<long[]> each = shards(file, shards);

        assertThat(union(each)).isEqualTo(intendedOffsets(single));
        for (int i = 0; shards > 1 && i < shards; i++) {
            // 12 shards are tested in all: each at 1 % / 12 (Bonferroni), so that all pass together at 1 %
            double critical = 1.973 / Math.sqrt(each.get(i).length);
            assertThat(ArrivalScheduleTest.ksDistanceToExponential(each.get(i), 2000.0 / shards))
                    .as("shard %d of %d", i, shards).isLessThan(critical);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7})
    void the_shards_of_a_ramp_send_exactly_its_intended_times(int shards) throws Exception {
        Path file = scenario(RAMP);
        Path single = dir.resolve("single");
        assertThat(run("run", file.toString(), "--out", single.toString(), "--progress", "none")).isEqualTo(0);

        assertThat(union(shards(file, shards))).isEqualTo(intendedOffsets(single));
    }

    @Test
    void results_json_says_which_shard_and_which_connections_a_closed_shard_ran() throws Exception {
        Path file = scenario("""
                name: closed
                target:
                  simulate: {servers: 8, service_time: 1ms}
                load: {model: closed, connections: 5, duration: 1s, grace: 1s}
                """);
        Path out = dir.resolve("closed-1");
        assertThat(run("run", file.toString(), "--shard", "1/2", "--out", out.toString(), "--progress", "none"))
                .isEqualTo(ExitCodes.OK);
        JsonNode shard = new ObjectMapper().readTree(out.resolve("results.json").toFile()).path("shard");

        assertThat(shard.path("index").asInt()).isEqualTo(1);
        assertThat(shard.path("count").asInt()).isEqualTo(2);
        assertThat(shard.path("connections").toString()).isEqualTo("[1,3]");
    }

    @Test
    void a_shard_that_would_get_no_connection_is_refused_with_exit_2() throws Exception {
        Path file = scenario("""
                name: closed
                target:
                  simulate: {servers: 8, service_time: 1ms}
                load: {model: closed, connections: 2, duration: 1s}
                """);

        assertThat(run("run", file.toString(), "--shard", "2/3", "--out", dir.resolve("x").toString()))
                .isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("--shard 2/3").contains("2 connection(s) gives shard 2 none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3/3", "-1/2", "1/0", "1", "a/b", "1/2/3"})
    void a_bad_shard_is_refused_with_exit_2(String shard) throws Exception {
        assertThat(run("run", scenario(POISSON).toString(), "--shard", shard, "--out", dir.resolve("x").toString()))
                .isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("--shard must be I/N with 0 <= I < N").contains(shard);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2020-01-01T00:00:00Z", "1000", "2999-01-01T00:00:00Z", "tomorrow"})
    void a_start_in_the_past_too_far_ahead_or_unreadable_is_refused_with_exit_2(String startAt) throws Exception {
        assertThat(run("run", scenario(POISSON).toString(), "--start-at", startAt, "--out",
                dir.resolve("x").toString())).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("--start-at");
    }
}
