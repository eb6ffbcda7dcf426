package io.loadsmith.tester.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.tester.engine.TesterSpec;
import io.loadsmith.tester.engine.TesterSpec.Arrivals;
import io.loadsmith.tester.engine.TesterSpec.Model;
import io.loadsmith.tester.engine.TesterSpec.OnLate;
import io.loadsmith.tester.scenario.Scenario.Step;
import io.loadsmith.tester.schedule.Stage;
import io.loadsmith.tester.transport.TestCertificates;
import io.loadsmith.tester.transport.TransportOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScenarioParserTest {

    @TempDir
    Path dir;

    @BeforeEach
    void writeData() throws IOException {
        Files.writeString(dir.resolve("customers.csv"), "customer_id,expected_score\nc1,0.5\n\"c,2\",0.75\n");
    }

    private Scenario parse(String yaml, String... overrides) {
        return ScenarioParser.parse(yaml, "score.yaml", dir, List.of(overrides));
    }

    private static final String FULL = """
            name: score-open
            target:
              url: http://127.0.0.1:8080
            stalls:
              admin: http://127.0.0.1:7070
              token_file: token.txt
              seed: 7
              mean_interval: 4s
              duration: 100ms
              min_gap: 500ms
              kind: spin
            load:
              model: open
              arrivals: constant
              rate: 546
              connections: 8
              duration: 30s
              warmup: 400
              max_concurrency: 512
              grace: 2s
              seed: 3
            objective: 10ms
            journeys:
              - name: score
                weight: 2.5
                data: customers.csv
                steps:
                  - name: score one
                    request: POST /score/${customer_id}?x=1
                    headers: {X-Customer: "${customer_id}"}
                    body: '{"id": "${customer_id}"}'
                    check: {status: 201, json: {score: "${expected_score}", who.name: ada}, body_contains: score}
                    think: 250us
                  - request: GET /health
            slos:
              - p99 < 500ms
              - p99:service < 50ms
              - above(10ms) < 1%
              - errors < 0.1%
            """;

    @Test
    void every_key_of_a_full_file_is_read() {
        Scenario s = parse(FULL);
        assertThat(s.name()).isEqualTo("score-open");
        assertThat(s.target().url()).isEqualTo(URI.create("http://127.0.0.1:8080"));
        assertThat(s.target().simulate()).isNull();
        assertThat(s.stalls().admin()).isEqualTo(URI.create("http://127.0.0.1:7070"));
        assertThat(s.stalls().tokenFile()).isEqualTo(dir.resolve("token.txt"));
        assertThat(s.stalls().plan().seededSpec()).contains(new SeededPlanSpec(7, 4_000_000_000L, 100_000_000L,
                500_000_000L, 30_000_000_000L));
        assertThat(s.stalls().plan().kind()).isEqualTo(StallKind.SPIN);
        assertTester(s.tester(), Model.OPEN, Arrivals.CONSTANT, 546, 0, 0, OnLate.CATCH_UP, 30_000_000_000L, 400, 0,
                512, 2_000_000_000L, 3);
        assertThat(s.connections()).isEqualTo(512);
        assertThat(s.tester().objectiveNanos()).isEqualTo(10_000_000L);
        assertThat(s.journeys()).hasSize(1);
        Scenario.JourneySpec journey = s.journeys().get(0);
        assertThat(journey.name()).isEqualTo("score");
        assertThat(journey.weight()).isEqualTo(2.5);
        assertThat(journey.data().columns()).containsExactly("customer_id", "expected_score");
        assertThat(journey.data().size()).isEqualTo(2);
        assertThat(journey.data().value(1, "customer_id")).isEqualTo("c,2");
        Step first = journey.steps().get(0);
        assertThat(first.name()).isEqualTo("score one");
        assertThat(first.method()).isEqualTo("POST");
        assertThat(first.path().render(Map.of("customer_id", "c1")::get)).isEqualTo("/score/c1?x=1");
        assertThat(first.headers().get("X-Customer").render(Map.of("customer_id", "c1")::get)).isEqualTo("c1");
        assertThat(first.body().render(Map.of("customer_id", "c1")::get)).isEqualTo("{\"id\": \"c1\"}");
        assertThat(first.check().status()).isEqualTo(201);
        assertThat(first.check().json().keySet()).containsExactlyInAnyOrder("score", "who.name");
        assertThat(first.check().bodyContains().source()).isEqualTo("score");
        assertThat(first.thinkNanos()).isEqualTo(250_000L);
        Step second = journey.steps().get(1);
        assertThat(second.name()).isEqualTo("GET /health");
        assertThat(second.check()).isNull();
        assertThat(second.body()).isNull();
        assertThat(second.headers()).isEmpty();
        assertThat(second.thinkNanos()).isZero();
        assertThat(s.slos()).extracting(Slo::expr)
                .containsExactly("p99 < 500ms", "p99:service < 50ms", "above(10ms) < 1%", "errors < 0.1%");
        assertThat(s.slos().get(0)).isEqualTo(new Slo("p99 < 500ms", Slo.Metric.PERCENTILE, 99, false, 0, 500_000_000L, false));
        assertThat(s.slos().get(1).service()).isTrue();
        assertThat(s.slos().get(2)).isEqualTo(new Slo("above(10ms) < 1%", Slo.Metric.ABOVE, 0, false, 10_000_000L, 0.01, false));
        assertThat(s.slos().get(3).limit()).isEqualTo(0.001);
        assertThat(s.sha256()).hasSize(64);
    }

    /** Headers go on the wire, and checks are reported, in the order the file gives them, on every JVM. */
    @Test
    void headers_and_json_checks_keep_the_order_of_the_file() {
        List<String> names = List.of("X-Zeta", "Accept", "X-Mid", "Authorization", "X-Alpha", "Cache-Control",
                "X-Omega", "User-Agent", "X-Beta", "Content-Type");
        StringBuilder headers = new StringBuilder();
        for (String name : names) {
            headers.append(headers.length() == 0 ? "" : ", ").append(name).append(": v");
        }
        Scenario s = parse("target: {url: \"http://127.0.0.1:9\"}\nload: {rate: 1, duration: 1s}\n"
                + "journeys: [{steps: [{request: 'GET /x', headers: {" + headers + "},"
                + " check: {json: {z: 1, a: 2, m: 3, b: 4, y: 5, c: 6}}}]}]\n");
        Step step = s.journeys().get(0).steps().get(0);
        assertThat(step.headers().keySet()).containsExactlyElementsOf(names);
        assertThat(step.check().json().keySet()).containsExactly("z", "a", "m", "b", "y", "c");
    }

    @Test
    void a_minimal_open_file_gets_every_default() {
        Scenario s = parse("""
                target: {url: "http://127.0.0.1:9/x"}
                load: {rate: 100, duration: 5s}
                """);
        assertThat(s.name()).isEqualTo("score");
        assertThat(s.stalls()).isNull();
        assertThat(s.tester().objectiveNanos()).isEqualTo(10_000_000L);
        assertThat(s.journeys()).isEmpty();
        assertThat(s.slos()).isEmpty();
        assertTester(s.tester(), Model.OPEN, Arrivals.POISSON, 100, 0, 0, OnLate.CATCH_UP, 5_000_000_000L, 0, 0, 0,
                10_000_000_000L, 1);
        assertThat(s.tester().name()).isEqualTo("open");
        assertThat(s.connections()).isEqualTo(ScenarioParser.DEFAULT_OPEN_CONNECTIONS);
    }

    private static void assertTester(TesterSpec t, Model model, Arrivals arrivals, double ratePerSecond, int connections,
                                     long paceNanos, OnLate onLate, long durationNanos, long warmupRequests,
                                     long warmupNanos, int maxConcurrency, long graceNanos, long seed) {
        assertThat(List.<Object>of(t.model(), t.arrivals(), t.ratePerSecond(), t.connections(), t.paceNanos(), t.onLate(),
                t.durationNanos(), t.warmupRequests(), t.warmupNanos(), t.maxConcurrency(), t.graceNanos(), t.seed()))
                .containsExactly(model, arrivals, ratePerSecond, connections, paceNanos, onLate, durationNanos,
                        warmupRequests, warmupNanos, maxConcurrency, graceNanos, seed);
    }

    @Test
    void closed_and_paced_defaults() {
        Scenario closed = parse("target: {url: 'http://h'}\nload: {model: closed, duration: 1s}\n");
        assertTester(closed.tester(), Model.CLOSED, Arrivals.POISSON, 0, 1, 0, OnLate.CATCH_UP, 1_000_000_000L, 0, 0, 0,
                10_000_000_000L, 1);
        assertThat(closed.connections()).isEqualTo(1);
        Scenario paced = parse("target: {url: 'http://h'}\nload: {model: paced, connections: 8, pace: 14.65ms, on_late: skip, duration: 1m, warmup: 2s}\n");
        assertTester(paced.tester(), Model.PACED, Arrivals.POISSON, 0, 8, 14_650_000L, OnLate.SKIP, 60_000_000_000L, 0,
                2_000_000_000L, 0, 10_000_000_000L, 1);
        assertThat(paced.connections()).isEqualTo(8);
    }

    @Test
    void the_tester_observes_its_own_pauses_unless_load_tester_pauses_is_off() {
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n").testerPauses()).isTrue();
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s, tester_pauses: on}\n").testerPauses())
                .isTrue();
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s, tester_pauses: off}\n").testerPauses())
                .isFalse();
    }

    @Test
    void load_precision_is_50_us_unless_given() {
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n").tester().precisionNanos())
                .isEqualTo(50_000);
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s, precision: 1ms}\n").tester()
                .precisionNanos()).isEqualTo(1_000_000);
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s, precision: 0}\n").tester()
                .precisionNanos()).isZero();
    }

    @Test
    void stages_give_the_duration_and_max_concurrency_sizes_the_pool() {
        Scenario ramp = parse("""
                target: {url: 'http://h'}
                load:
                  stages: [{duration: 10s, target: 100}, {duration: 20s, target: 0}]
                  max_concurrency: 64
                """);
        assertThat(ramp.tester().stages()).containsExactly(new Stage(10_000_000_000L, 100), new Stage(20_000_000_000L, 0));
        assertThat(ramp.tester().durationNanos()).isEqualTo(30_000_000_000L);
        assertThat(ramp.tester().maxConcurrency()).isEqualTo(64);
        assertThat(ramp.connections()).isEqualTo(64);
        assertThat(parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s, connections: 8, max_concurrency: 64}\n")
                .connections()).isEqualTo(64);
    }

    @Test
    void a_simulation_takes_service_time_and_stalls_as_windows_or_a_plan() {
        Scenario windows = parse("""
                target:
                  simulate: {servers: 2, service_time: 10ms, stalls: [{at: 20s, duration: 5s}, {at: 30s, duration: 1s}]}
                load: {rate: 10, duration: 1m}
                """);
        assertThat(windows.target().simulated()).isTrue();
        assertThat(windows.target().simulate().servers()).isEqualTo(2);
        assertThat(windows.target().simulate().serviceTime()).hasToString("constant 10000000 ns");
        assertThat(windows.target().simulate().stalls().stalls()).containsExactly(
                new PlannedStall(0, 20_000_000_000L, 5_000_000_000L), new PlannedStall(1, 30_000_000_000L, 1_000_000_000L));
        Scenario plan = parse("""
                target:
                  simulate:
                    service_time: {distribution: exponential, mean: 1ms}
                    stalls: {seed: 7, mean_interval: 4s, duration: 100ms, min_gap: 500ms}
                load: {rate: 10, duration: 1m}
                """);
        assertThat(plan.target().simulate().servers()).isEqualTo(1);
        assertThat(plan.target().simulate().serviceTime()).hasToString("exponential, mean 1000000 ns");
        assertThat(plan.target().simulate().stalls().seededSpec()).contains(new SeededPlanSpec(7, 4_000_000_000L,
                100_000_000L, 500_000_000L, 60_000_000_000L));
        assertThat(plan.target().simulate().stalls().kind()).isEqualTo(StallKind.BLOCK);
        assertThat(parse("""
                target: {simulate: {service_time: {distribution: lognormal, median: 2ms, sigma: 0.5}}}
                load: {rate: 10, duration: 1m}
                """).target().simulate().serviceTime()).hasToString("log-normal, median 2000000 ns, sigma 0.5");
    }

    @Test
    void agent_stalls_have_defaults() {
        Scenario s = parse("target: {url: 'http://h'}\nstalls: {admin: 'http://127.0.0.1:7070'}\nload: {rate: 1, duration: 1s}\n");
        assertThat(s.stalls().tokenFile()).isNull();
        assertThat(s.stalls().plan().seededSpec()).contains(new SeededPlanSpec(1, 4_000_000_000L, 100_000_000L,
                500_000_000L, 1_000_000_000L));
        assertThat(s.stalls().plan().kind()).isEqualTo(StallKind.BLOCK);
    }

    @Test
    void agent_stalls_may_list_one_admin_url_per_replica() {
        Scenario s = parse("target: {url: 'http://h'}\nstalls: {admin: ['http://10.0.0.7:7070', 'http://10.0.0.8:7070']}\n"
                + "load: {rate: 1, duration: 1s}\n");
        assertThat(s.stalls().admins()).containsExactly(URI.create("http://10.0.0.7:7070"), URI.create("http://10.0.0.8:7070"));
        assertThat(s.stalls().admin()).isEqualTo(URI.create("http://10.0.0.7:7070"));
    }

    @Test
    void set_overrides_replace_and_add_keys_and_are_validated_the_same_way() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 100, duration: 5s}\n";
        Scenario s = parse(yaml, "load.rate=800", "load.seed=9", "objective=20ms", "name=other");
        assertThat(s.tester().ratePerSecond()).isEqualTo(800);
        assertThat(s.tester().seed()).isEqualTo(9);
        assertThat(s.tester().objectiveNanos()).isEqualTo(20_000_000L);
        assertThat(s.name()).isEqualTo("other");
        assertThat(s.overrides()).containsExactly("load.rate=800", "load.seed=9", "objective=20ms", "name=other");
        assertThat(parse(FULL, "journeys[0].weight=4").journeys().get(0).weight()).isEqualTo(4);
        assertThatThrownBy(() -> parse(yaml, "load.rate=-5")).hasMessage("--set load.rate=-5: load.rate must be > 0 (got -5)");
        assertThatThrownBy(() -> parse(yaml, "lod.rate=5"))
                .hasMessage("--set lod.rate=5: lod is not a known key (did you mean load?)");
        assertThatThrownBy(() -> parse(yaml, "load.rate")).hasMessage("--set load.rate: write it as key=value, e.g. --set load.rate=800");
        assertThatThrownBy(() -> parse(yaml, "journeys[3].weight=1")).hasMessage("--set journeys[3].weight=1: journeys has no item 3");
    }

    @Test
    void durations_take_every_unit() {
        assertThat(Durations.parse("7ns")).isEqualTo(7);
        assertThat(Durations.parse("1.5us")).isEqualTo(1_500);
        assertThat(Durations.parse("14.65ms")).isEqualTo(14_650_000);
        assertThat(Durations.parse("2s")).isEqualTo(2_000_000_000L);
        assertThat(Durations.parse("3m")).isEqualTo(180_000_000_000L);
        assertThat(Durations.parse("1h")).isEqualTo(3_600_000_000_000L);
        assertThat(Durations.parse("0")).isZero();
        assertThat(Durations.format(1_500_000)).isEqualTo("1.5ms");
    }

    @Test
    void a_file_is_read_with_its_name_hash_and_data_relative_to_it() throws Exception {
        Path file = dir.resolve("mine.yaml");
        Files.writeString(file, "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n");
        Scenario s = ScenarioParser.parse(file, List.of());
        assertThat(s.name()).isEqualTo("mine");
        assertThat(s.file()).isEqualTo(file);
        assertThat(s.sha256()).isEqualTo(java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
        assertThatThrownBy(() -> ScenarioParser.parse(dir.resolve("none.yaml"), List.of()))
                .hasMessage(dir.resolve("none.yaml") + ": no such file");
    }

    private static final String OK_TARGET = "target: {url: 'http://h'}\n";

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `target: {url: 'http://h'}\\nload: {rate: -5, duration: 1s}\\n`                  | score.yaml:2: load.rate must be > 0 (got -5)
            `target: {url: 'http://h'}\\nload: {rate: 0, duration: 1s}\\n`                   | score.yaml:2: load.rate must be > 0 (got 0)
            `target: {url: 'http://h'}\\nload: {rate: lots, duration: 1s}\\n`                | score.yaml:2: load.rate must be a number (got "lots")
            `target: {url: 'http://h'}\\nload:\\n  rate: 5\\n  durtion: 1s\\n`               | score.yaml:4: load.durtion is not a known key (did you mean duration?)
            `target: {url: 'http://h'}\\nload:\\n  rate: 5\\n  duration: 10\\n`              | score.yaml:4: load.duration needs a unit: ns, us, ms, s, m or h (got "10")
            `target: {url: 'http://h'}\\nload:\\n  rate: 5\\n  duration: 1 sec\\n`           | score.yaml:4: load.duration must be a duration like 250ms, 1.5s or 2m (got "1 sec")
            `target: {url: 'http://h'}\\nload: {rate: 5}\\n`                                 | score.yaml:2: load needs duration (how long the counted run lasts, e.g. 30s)
            `target: {url: 'http://h'}\\nload: {duration: 5s}\\n`                            | score.yaml:2: load needs rate (requests a second) or stages for model open
            `target: {url: 'http://h'}\\nload: {model: closd, duration: 5s}\\n`              | score.yaml:2: load.model must be one of open, closed, paced (got "closd"; did you mean closed?)
            `target: {url: 'http://h'}\\nload: {model: closed, rate: 5, duration: 5s}\\n`    | score.yaml:2: load.rate is only for model open (this is model closed)
            `target: {url: 'http://h'}\\nload: {model: paced, duration: 5s}\\n`              | score.yaml:2: load.pace is required
            `target: {url: 'http://h'}\\nload: {model: open, rate: 1, pace: 1ms, duration: 5s}\\n` | score.yaml:2: load.pace is only for model paced (this is model open)
            `target: {url: 'http://h'}\\nload: {model: closed, connections: 0, duration: 5s}\\n` | score.yaml:2: load.connections must be >= 1 (got 0)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 5s, warmup: -1}\\n`       | score.yaml:2: load.warmup must be >= 0 (got -1)
            `load: {rate: 1, duration: 5s}\\n`                                               | score.yaml:1: target is required
            `target: {url: 'http://h'}\\n`                                                   | score.yaml:1: load is required
            `target: {url: 'ftp://h'}\\nload: {rate: 1, duration: 1s}\\n`                    | score.yaml:1: target.url must be an http:// or https:// URL with a host (got "ftp://h")
            `target: {url: 'http://h', simulate: {service_time: 1ms}}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:1: target needs exactly one of url (a real service) or simulate (a simulated one)
            `target: {simulate: {service_time: 1ms, stalls: [{at: 2s, duration: 1s}, {at: 2500ms, duration: 1s}]}}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:1: target.simulate.stalls[1].at overlaps the stall before it (which ends at 3s); list stalls in order, apart
            `target: {simulate: {service_time: 0}}\nload: {rate: 1, duration: 1s}\n`       | score.yaml:1: target.simulate.service_time must be > 0 (got 0)
            `target: {simulate: {service_time: {distribution: normal, mean: 1ms}}}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:1: target.simulate.service_time.distribution must be one of constant, exponential, lognormal (got "normal")
            `target: {simulate: {service_time: 1ms, stalls: {duration: 1s}}}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:1: target.simulate.stalls needs min_gap >= duration (1s); the default min_gap is 500ms
            `target: {simulate: {service_time: 1ms}}\\nstalls: {admin: 'http://a'}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:2: stalls arms an agent, so it needs target.url; a simulation takes its stalls under target.simulate.stalls
            `target: {url: 'http://h'}\\nstalls: {admin: ['http://a:1', 'http://a:1']}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:2: stalls.admin[1] lists http://a:1 twice
            `target: {url: 'http://h'}\\nstalls: {admin: []}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:2: stalls.admin must list at least one admin URL
            `target: {url: 'http://h'}\\nstalls: {admin: ['http://a:1', 'ftp://b']}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:2: stalls.admin[1] must be an http:// or https:// URL with a host (got "ftp://b")
            `target: {url: 'http://h'}\\nstalls: {admin: 'http://a', kind: nap}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:2: stalls.kind must be one of block, spin, freeze (got "nap")
            `target: {url: 'http://h'}\\nstalls: {admin: 'http://a', duration: 1s, min_gap: 500ms}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:2: stalls.min_gap must be >= 1s (got 500ms)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\nobjective: -1ms\\n` | score.yaml:3: objective must be a duration like 250ms, 1.5s or 2m (got "-1ms")
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\nslos: [p99 > 5ms]\\n` | score.yaml:3: slos[0] "p99 > 5ms" is not an SLO; write it like "p99 < 500ms", "p99:service < 50ms", "max < 2s", "above(10ms) < 1%" or "errors < 0.1%"
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\nslos: [p100.5 < 5ms]\\n` | score.yaml:3: slos[0] p100.5 is not a percentile (write p50, p90, p99, p99.9 or p999)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\nslos: [errors < 120%]\\n` | score.yaml:3: slos[0] "errors < 120%": a share must be <= 100% (got 120.0%)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{steps: [{request: 'FETCH /x'}]}]\\n` | score.yaml:3: journeys[0].steps[0].request has an unknown method "FETCH" (one of GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, GRPC; did you mean PATCH?)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{steps: [{request: 'GET x'}]}]\\n` | score.yaml:3: journeys[0].steps[0].request needs a path starting with / (got "x")
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{steps: [{request: 'GET /${id}'}]}]\\n` | score.yaml:3: journeys[0].steps[0].request uses ${id} but the journey has no data file (add data: file.csv)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{data: customers.csv, steps: [{request: 'GET /${customer}'}]}]\\n` | score.yaml:3: journeys[0].steps[0].request uses ${customer}, which is not a column of customers.csv (columns: customer_id, expected_score)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{data: missing.csv, steps: [{request: 'GET /'}]}]\\n` | score.yaml:3: journeys[0].data names a file that does not exist: DIR/missing.csv
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{weight: 0, steps: [{request: 'GET /'}]}]\\n` | score.yaml:3: journeys[0].weight must be > 0 (got 0)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{steps: []}]\\n` | score.yaml:3: journeys[0].steps must have at least one step
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{steps: [{request: 'GET /', check: {status: 700}}]}]\\n` | score.yaml:3: journeys[0].steps[0].check.status must be <= 599 (got 700)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\njourneys: [{steps: [{request: 'GET /', thnk: 1s}]}]\\n` | score.yaml:3: journeys[0].steps[0].thnk is not a known key (did you mean think?)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s}\\nload: {rate: 2, duration: 1s}\\n` | score.yaml:3: load is given twice
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s, tester_pauses: offf}\\n` | score.yaml:2: load.tester_pauses must be one of on, off (got "offf"; did you mean off?)
            `target: {url: 'http://h'}\\nload: {rate: 1, duration: 1s, precision: 2s}\\n`   | score.yaml:2: load.precision must be <= 1s (how late a send may go; got 2s)
            `target: {url: 'http://h'}\\nload: [1, 2]\\n`                                     | score.yaml:2: load must be a mapping of model, arrivals, rate, stages, connections, pace, on_late, duration, warmup, max_concurrency, grace, seed, tester_pauses, precision (got a list)
            `target: {url: 'http://h'\\n`                                                     | score.yaml:2: not valid YAML: expected ',' or '}', but got <stream end>
            `# nothing here\n`                                                              | score.yaml: is empty
            `~\n`                                                                            | score.yaml: is empty
            """)
    void a_bad_file_gets_a_message_naming_file_line_and_key(String yaml, String message) {
        String text = yaml.replace("\\n", "\n");
        assertThatThrownBy(() -> parse(text))
                .isInstanceOf(ScenarioException.class)
                .hasMessage(message.replace("DIR", dir.toString()));
    }

    @Test
    void give_up_after_is_ten_seconds_unless_target_give_up_after_says_otherwise() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n";
        assertThat(parse(yaml).target().giveUpAfterNanos()).isEqualTo(10_000_000_000L);
        assertThat(parse(yaml, "target.give_up_after=2500ms").target().giveUpAfterNanos()).isEqualTo(2_500_000_000L);
    }

    @Test
    void metrics_listen_takes_host_and_port_or_a_port_on_loopback_and_lingers_five_seconds_unless_told() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n";
        assertThat(parse(yaml).metrics()).isNull();
        assertThat(parse(yaml, "metrics.listen=0.0.0.0:9464").metrics())
                .isEqualTo(new Scenario.Metrics("0.0.0.0", 9464, 5_000_000_000L));
        assertThat(parse(yaml, "metrics={listen: 9464, linger: 250ms}").metrics())
                .isEqualTo(new Scenario.Metrics("127.0.0.1", 9464, 250_000_000L));
        assertThat(parse(yaml, "metrics.listen='[::1]:0'").metrics()).isEqualTo(new Scenario.Metrics("::1", 0, 5_000_000_000L));
    }

    @Test
    void a_bad_metrics_block_names_file_line_and_field() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\nmetrics:\n  listen: %s\n";
        assertThatThrownBy(() -> parse(yaml.formatted("'127.0.0.1:http'"))).isInstanceOf(ScenarioException.class)
                .hasMessage("score.yaml:4: metrics.listen must be HOST:PORT or PORT, e.g. 127.0.0.1:9464, the port a "
                        + "number from 0 to 65535 (got \"127.0.0.1:http\")");
        assertThatThrownBy(() -> parse(yaml.formatted("'127.0.0.1:70000'"))).isInstanceOf(ScenarioException.class)
                .hasMessage("score.yaml:4: metrics.listen must have a port from 0 to 65535 (got 70000)");
        assertThatThrownBy(() -> parse("target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\nmetrics: {linger: 1s}\n"))
                .isInstanceOf(ScenarioException.class).hasMessageStartingWith("score.yaml:3: metrics");
        String simulated = "load: {rate: 1, duration: 1s}\ntarget: {simulate: {service_time: 1ms}}\nmetrics: {listen: 9464}\n";
        assertThatThrownBy(() -> parse(simulated)).isInstanceOf(ScenarioException.class)
                .hasMessage("score.yaml:3: metrics serves a real run's live figures, so it needs target.url; a simulation "
                        + "runs in virtual time, with nothing live to serve");
    }

    @Test
    void a_bad_give_up_after_names_file_line_and_field() {
        String zero = "load: {rate: 1, duration: 1s}\ntarget:\n  url: 'http://h'\n  give_up_after: 0s\n";
        assertThatThrownBy(() -> parse(zero))
                .isInstanceOf(ScenarioException.class)
                .hasMessage("score.yaml:4: target.give_up_after must be > 0 (got 0s)");
        String simulated = "load: {rate: 1, duration: 1s}\ntarget:\n  simulate: {service_time: 1ms}\n  give_up_after: 1s\n";
        assertThatThrownBy(() -> parse(simulated))
                .isInstanceOf(ScenarioException.class)
                .hasMessage("score.yaml:4: target.give_up_after is only for a target.url (a simulation has no HTTP client)");
    }

    @Test
    void the_transport_is_netty_unless_target_transport_says_jetty() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n";
        assertThat(parse(yaml).target().transport()).isEqualTo(TransportOptions.Kind.NETTY);
        assertThat(parse(yaml, "target.transport=jetty").target().transport()).isEqualTo(TransportOptions.Kind.JETTY);
        assertThat(parse(yaml).target().tls()).isEqualTo(TransportOptions.Tls.DEFAULT);
        assertThatThrownBy(() -> parse(yaml, "target.transport=okhttp"))
                .hasMessage("--set target.transport=okhttp: target.transport must be one of netty, jetty (got \"okhttp\")");
    }

    @Test
    void http_is_1_1_unless_target_http_says_2_which_runs_on_jetty() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n";
        assertThat(parse(yaml).target().http()).isEqualTo(TransportOptions.Http.HTTP_1_1);
        assertThat(parse(yaml, "target.http=1.1").target().http()).isEqualTo(TransportOptions.Http.HTTP_1_1);
        Scenario h2 = parse(yaml, "target.http=2");
        assertThat(h2.target().http()).isEqualTo(TransportOptions.Http.HTTP_2);
        assertThat(h2.target().transport()).isEqualTo(TransportOptions.Kind.JETTY);
        Scenario h2Jetty = parse(yaml, "target.transport=jetty", "target.http=2");
        assertThat(h2Jetty.target().transport()).isEqualTo(TransportOptions.Kind.JETTY);
        assertThat(h2Jetty.transport().http()).isEqualTo(TransportOptions.Http.HTTP_2);
        assertThat(h2Jetty.transport().kind()).isEqualTo(TransportOptions.Kind.JETTY);
        Scenario quoted = parse("target: {url: 'https://h', http: \"2\", tls: {insecure: true}}\n"
                + "load: {rate: 1, duration: 1s}\n");
        assertThat(quoted.target().http()).isEqualTo(TransportOptions.Http.HTTP_2);
        assertThat(quoted.target().tls()).isEqualTo(new TransportOptions.Tls(true, null));
    }

    @Test
    void tls_trust_is_read_for_https_targets() throws Exception {
        Path pem = Files.move(TestCertificates.make(dir).pem(), dir.resolve("ca.pem"));
        Scenario insecure = parse("target: {url: 'https://h', tls: {insecure: true}}\nload: {rate: 1, duration: 1s}\n");
        assertThat(insecure.target().tls()).isEqualTo(new TransportOptions.Tls(true, null));
        Scenario ca = parse("target: {url: 'https://h', tls: {ca_file: ca.pem}}\nload: {rate: 1, duration: 1s}\n");
        assertThat(ca.target().tls()).isEqualTo(new TransportOptions.Tls(false, pem));
    }

    @Test
    void target_loops_defaults_to_one_and_reaches_the_transport_options() {
        String yaml = "target: {url: 'http://h'}\nload: {rate: 1, duration: 1s}\n";

        assertThat(parse(yaml).transport().loops()).isEqualTo(1);
        assertThat(parse(yaml, "target.loops=3").transport().loops()).isEqualTo(3);
        assertThat(parse(yaml, "target.loops=3").target().loops()).isEqualTo(3);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            `target: {url: 'http://h', tls: {insecure: true}}\\nload: {rate: 1, duration: 1s}\\n`           | score.yaml:1: target.tls is only for an https:// or grpcs:// url (got "http://h")
            `target: {url: 'https://h', tls: {insecure: yes please}}\\nload: {rate: 1, duration: 1s}\\n`    | score.yaml:1: target.tls.insecure must be true or false (got "yes please")
            `target: {url: 'https://h', tls: {ca_file: none.pem}}\\nload: {rate: 1, duration: 1s}\\n`       | score.yaml:1: target.tls.ca_file names a file that does not exist: DIR/none.pem
            `target: {url: 'https://h', tls: {ca_file: customers.csv}}\\nload: {rate: 1, duration: 1s}\\n`  | score.yaml:1: target.tls.ca_file cannot be used: DIR/customers.csv is not a PEM file of certificates (No certificate data found)
            `target: {url: 'https://h', tls: {insecure: true, ca_file: customers.csv}}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:1: target.tls.ca_file cannot go with insecure: true (which trusts any certificate)
            `target: {url: 'https://h', tls: {verify: false}}\\nload: {rate: 1, duration: 1s}\\n`          | score.yaml:1: target.tls.verify is not a known key
            `target: {simulate: {service_time: 1ms}, transport: jetty}\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:1: target.transport is only for a target.url (a simulation has no HTTP client)
            `target: {simulate: {service_time: 1ms}, http: 2}\\nload: {rate: 1, duration: 1s}\\n`     | score.yaml:1: target.http is only for a target.url (a simulation has no HTTP client)
            `target: {url: 'http://h', http: 3}\\nload: {rate: 1, duration: 1s}\\n`                    | score.yaml:1: target.http must be "1.1" or "2" (got "3")
            `target: {url: 'http://h', http: h2}\\nload: {rate: 1, duration: 1s}\\n`                   | score.yaml:1: target.http must be "1.1" or "2" (got "h2")
            `target:\\n  url: 'http://h'\\n  transport: netty\\n  http: 2\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:3: target.transport must be jetty with target.http: 2 (HTTP/2 needs target.transport: jetty; netty speaks HTTP/1.1 only)
            `target: {url: 'http://h', loops: 0}\\nload: {rate: 1, duration: 1s}\\n`                  | score.yaml:1: target.loops must be >= 1 (got 0)
            `target: {url: 'http://h', loops: two}\\nload: {rate: 1, duration: 1s}\\n`                | score.yaml:1: target.loops must be a whole number (got "two")
            `target:\\n  url: 'http://h'\\n  transport: jetty\\n  loops: 2\\nload: {rate: 1, duration: 1s}\\n` | score.yaml:4: target.loops must be 1 with target.transport: jetty (more than one event loop is the netty transport's)
            `target: {simulate: {service_time: 1ms}, loops: 2}\\nload: {rate: 1, duration: 1s}\\n`  | score.yaml:1: target.loops is only for a target.url (a simulation has no HTTP client)
            """)
    void bad_transport_and_tls_keys_name_file_line_and_key(String yaml, String message) {
        String text = yaml.replace("\\n", "\n");
        assertThatThrownBy(() -> parse(text))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(message.replace("DIR", dir.toString()));
    }
}
