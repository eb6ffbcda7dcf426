package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.record.Histograms;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code loadsmith merge} on the shards of simulated runs (virtual clock: exact). */
class MergeCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path scenario;

    private static final String SCENARIO = """
            name: merged
            target:
              simulate: {servers: 2, service_time: 2ms, stalls: [{at: 1s, duration: 300ms}]}
            load: {model: open, arrivals: poisson, rate: 400, duration: 3s, grace: 2s, seed: 3}
            slos:
              - errors < 1%
            """;

    private int run(String... args) {
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @BeforeEach
    void writeScenario() throws Exception {
        scenario = dir.resolve("scenario.yaml");
        Files.writeString(scenario, SCENARIO);
    }

    private Path shard(String name, String shard, String... more) {
        return shardExiting(ExitCodes.OK, name, shard, more);
    }

    private Path shardExiting(int code, String name, String shard, String... more) {
        Path folder = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", scenario.toString(), "--shard", shard, "--out",
                folder.toString(), "--progress", "none"));
        args.addAll(List.of(more));
        assertThat(run(args.toArray(String[]::new))).as(err.toString()).isEqualTo(code);
        return folder;
    }

    private List<Path> threeShards() {
        return List.of(shard("s0", "0/3"), shard("s1", "1/3"), shard("s2", "2/3"));
    }

    private static JsonNode results(Path folder) throws Exception {
        return new ObjectMapper().readTree(folder.resolve("results.json").toFile());
    }

    /** Every interval of an interval log added up, by tag. */
    static Map<String, Histogram> totals(Path folder) throws Exception {
        Map<String, Histogram> byTag = new HashMap<>();
        HistogramLogReader reader = new HistogramLogReader(folder.resolve("latency.hlog").toFile());
        Histogram next;
        while ((next = (Histogram) reader.nextIntervalHistogram()) != null) {
            byTag.computeIfAbsent(next.getTag(), t -> Histograms.create()).add(next);
        }
        return byTag;
    }

    private int merge(List<Path> folders, Path into) {
        List<String> args = new ArrayList<>(List.of("merge"));
        folders.forEach(f -> args.add(f.toString()));
        args.addAll(List.of("--out", into.toString()));
        return run(args.toArray(String[]::new));
    }

    @Test
    void merging_three_shards_gives_the_single_runs_schedule_and_the_sum_of_the_shards_histograms() throws Exception {
        Path single = dir.resolve("single");
        assertThat(run("run", scenario.toString(), "--out", single.toString(), "--progress", "none")).isEqualTo(0);
        List<Path> shards = threeShards();
        Path merged = dir.resolve("merged");

        assertThat(merge(shards, merged)).as(err.toString()).isEqualTo(ExitCodes.OK);

        JsonNode result = results(merged);
        JsonNode run = result.path("runs").get(0);
        assertThat(run.path("counts").path("sent").asLong())
                .isEqualTo(results(single).path("runs").get(0).path("counts").path("sent").asLong());
        assertThat(ShardRunTest.intendedOffsets(merged)).isEqualTo(ShardRunTest.intendedOffsets(single));
        Map<String, Histogram> sum = new HashMap<>();
        for (Path shard : shards) {
            totals(shard).forEach((tag, h) -> sum.computeIfAbsent(tag, t -> Histograms.create()).add(h));
        }
        Map<String, Histogram> mergedTotals = totals(merged);
        assertThat(mergedTotals.keySet()).containsExactlyInAnyOrder("service", "corrected");
        assertThat(mergedTotals.get("corrected")).isEqualTo(sum.get("corrected"));
        assertThat(mergedTotals.get("service")).isEqualTo(sum.get("service"));
        assertThat(run.path("latency_ms").path("corrected").path("count").asLong())
                .isEqualTo(sum.get("corrected").getTotalCount());
        assertThat(result.path("shard").path("index").isNull()).isTrue();
        assertThat(result.path("shard").path("count").asInt()).isEqualTo(3);
        assertThat(result.path("slos").get(0).path("pass").asBoolean()).isTrue();
        assertThat(merged.resolve("report.html")).isNotEmptyFile();
    }

    @Test
    void an_slo_that_fails_on_the_merged_figures_exits_1() throws Exception {
        List<Path> shards = List.of(shardExiting(ExitCodes.SLO_FAILED, "s0", "0/2", "--set", "slos=[p99 < 1ms]"),
                shardExiting(ExitCodes.SLO_FAILED, "s1", "1/2", "--set", "slos=[p99 < 1ms]"));

        assertThat(merge(shards, dir.resolve("merged"))).isEqualTo(ExitCodes.SLO_FAILED);
        assertThat(results(dir.resolve("merged")).path("slos").get(0).path("pass").asBoolean()).isFalse();
    }

    @Test
    void a_missing_shard_is_refused_with_exit_2_naming_it() {
        List<Path> shards = threeShards();

        assertThat(merge(List.of(shards.get(0), shards.get(2)), dir.resolve("merged"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("shard(s) [1] of 3 missing");
    }

    @Test
    void a_shard_given_twice_is_refused_with_exit_2_naming_both_folders() {
        Path first = shard("a", "0/2");
        Path again = shard("b", "0/2");

        assertThat(merge(List.of(first, again), dir.resolve("merged"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains(first + " and " + again + " are both shard 0 of 2");
    }

    @Test
    void shards_of_another_seed_are_refused_with_exit_2() {
        Path first = shard("a", "0/2");
        Path other = shard("b", "1/2", "--set", "load.seed=4");

        assertThat(merge(List.of(first, other), dir.resolve("merged"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains(first + " and " + other + " ran different seeds (3, 4)");
    }

    @Test
    void shards_of_another_count_are_refused_with_exit_2() {
        Path first = shard("a", "0/2");
        Path other = shard("b", "1/3");

        assertThat(merge(List.of(first, other), dir.resolve("merged"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("split the load into different numbers of shards (2, 3)");
    }

    @Test
    void shards_of_another_scenario_are_refused_with_exit_2() throws Exception {
        Path first = shard("a", "0/2");
        Files.writeString(scenario, SCENARIO.replace("rate: 400", "rate: 300"));
        Path other = shard("b", "1/2");

        assertThat(merge(List.of(first, other), dir.resolve("merged"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains(first + " and " + other + " ran different scenarios");
    }

    @Test
    void a_folder_not_run_as_a_shard_is_refused_with_exit_2() {
        Path plain = dir.resolve("plain");
        assertThat(run("run", scenario.toString(), "--out", plain.toString(), "--progress", "none")).isEqualTo(0);

        assertThat(merge(List.of(plain), dir.resolve("merged"))).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains(plain + ": not a shard's folder");
    }
}
