package io.loadsmith.stall.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.stall.BuildInfo;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The admin API over real HTTP, on port 0, against a real controller. */
@Timeout(60)
class AdminServerIT {

    private static final long MS = 1_000_000L;
    private static final String SEEDED = "{\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 100, "
            + "\"min_gap_ms\": 500, \"horizon_ms\": 60000, \"kind\": \"block\"}";

    private final StallGate gate = new StallGate();
    private final StallController controller = new StallController(Clock.system(), gate);
    private final List<AdminServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(AdminServer::close);
        controller.close();
    }

    private AdminClient start(AdminConfig.Builder config) {
        AdminServer server = AdminServer.start(config.port(0).build(), controller);
        servers.add(server);
        return new AdminClient(server.address());
    }

    private AdminClient start() {
        return start(AdminConfig.builder().version("1.2.3"));
    }

    // ---- the happy paths -------------------------------------------------------------------------

    @Test
    void arm_with_a_seeded_plan_answers_the_run_id_the_moment_of_arming_and_the_planned_stalls() throws Exception {
        AdminClient admin = start();
        long beforeNanos = System.nanoTime();
        AdminClient.Answer answer = admin.postJson("/arm", SEEDED);
        long afterNanos = System.nanoTime();

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.contentType()).isEqualTo("application/json");
        JsonNode json = answer.json();
        long armedAtNanos = json.get("armed_at_ns").asLong();
        assertThat(armedAtNanos).isBetween(beforeNanos, afterNanos);
        assertThat(json.get("run_id").asText()).isEqualTo(controller.lastRunId());
        assertThat(json.get("kind").asText()).isEqualTo("block");
        assertThat(json.get("horizon_ns").asLong()).isEqualTo(60_000 * MS);
        List<PlannedStall> expected = StallPlan.seeded(
                new SeededPlanSpec(7, 4000 * MS, 100 * MS, 500 * MS, 60_000 * MS), StallKind.BLOCK).stalls();
        JsonNode stalls = json.get("stalls");
        assertThat(stalls).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(stalls.get(i).get("index").asInt()).isEqualTo(i);
            assertThat(stalls.get(i).get("offset_ns").asLong()).isEqualTo(expected.get(i).offsetNanos());
            assertThat(stalls.get(i).get("planned_start_ns").asLong()).isEqualTo(armedAtNanos + expected.get(i).offsetNanos());
            assertThat(stalls.get(i).get("duration_ns").asLong()).isEqualTo(100 * MS);
        }
        assertThat(controller.armed()).isTrue();
    }

    @Test
    void arm_with_a_run_id_arms_under_that_id_and_its_windows_are_fetched_by_it() throws Exception {
        AdminClient admin = start();
        JsonNode armed = admin.postJson("/arm", "{\"stalls\": [{\"offset_ms\": 10, \"duration_ms\": 5}], "
                + "\"kind\": \"spin\", \"run_id\": \"shards-7:abc_1.0\"}").json();

        assertThat(armed.get("run_id").asText()).isEqualTo("shards-7:abc_1.0");
        assertThat(controller.lastRunId()).isEqualTo("shards-7:abc_1.0");
        awaitDisarmedByHorizon();
        JsonNode page = admin.get("/stalls?run_id=shards-7:abc_1.0").json();
        assertThat(page.get("stalls")).hasSize(1);
        assertThat(page.get("stalls").get(0).get("run_id").asText()).isEqualTo("shards-7:abc_1.0");
    }

    @Test
    void stalls_lists_every_window_that_happened_with_its_real_start_and_end() throws Exception {
        AdminClient admin = start();
        JsonNode armed = admin.postJson("/arm", "{\"stalls\": [{\"offset_ms\": 20, \"duration_ms\": 30}, "
                + "{\"offset_ms\": 80.5, \"duration_ms\": 10.25}], \"kind\": \"spin\"}").json();
        String runId = armed.get("run_id").asText();
        assertThat(armed.get("stalls").get(1).get("offset_ns").asLong()).isEqualTo(80_500_000L);
        awaitDisarmedByHorizon();

        JsonNode page = admin.get("/stalls?run_id=" + runId).json();
        assertThat(page.get("run_id").asText()).isEqualTo(runId);
        assertThat(page.get("armed").asBoolean()).isFalse();
        assertThat(page.get("next_index").asLong()).isEqualTo(2);
        assertThat(page.get("more").asBoolean()).isFalse();
        assertThat(page.get("dropped").asLong()).isZero();
        JsonNode stalls = page.get("stalls");
        assertThat(stalls).hasSize(2);
        long armedAtNanos = armed.get("armed_at_ns").asLong();
        for (int i = 0; i < 2; i++) {
            JsonNode stall = stalls.get(i);
            assertThat(stall.get("index").asLong()).isEqualTo(i);
            assertThat(stall.get("run_id").asText()).isEqualTo(runId);
            assertThat(stall.get("kind").asText()).isEqualTo("spin");
            assertThat(stall.get("held").asLong()).isZero();
            assertThat(stall.get("planned_start_ns").asLong()).isEqualTo(armed.get("stalls").get(i).get("planned_start_ns").asLong());
            assertThat(stall.get("start_ns").asLong()).isGreaterThanOrEqualTo(stall.get("planned_start_ns").asLong());
        }
        assertThat(stalls.get(0).get("planned_start_ns").asLong()).isEqualTo(armedAtNanos + 20 * MS);
        assertThat(stalls.get(1).get("end_ns").asLong() - stalls.get(1).get("start_ns").asLong()).isGreaterThanOrEqualTo(10_250_000L);

        JsonNode second = admin.get("/stalls?run_id=" + runId + "&since_index=1").json();
        assertThat(second.get("stalls")).hasSize(1);
        assertThat(second.get("stalls").get(0).get("index").asLong()).isEqualTo(1);
        assertThat(admin.get("/stalls").json().get("stalls")).hasSize(2);
        assertThat(admin.get("/stalls?run_id=nope").json().get("stalls")).isEmpty();
    }

    @Test
    void disarm_ends_the_stall_in_progress_and_answers_the_windows_so_far() throws Exception {
        AdminClient admin = start(AdminConfig.builder().maxStalledShare(1.0));
        String runId = admin.postJson("/arm", "{\"stalls\": [{\"offset_ms\": 10, \"duration_ms\": 50}, "
                + "{\"offset_ms\": 100, \"duration_ms\": 5000}]}").json().get("run_id").asText();
        poll().until(() -> !controller.stalls(runId, 0).stalls().isEmpty() && gate.openWindow() != null);

        JsonNode disarmed = admin.post("/disarm", null, "").json();
        assertThat(disarmed.get("disarmed").asBoolean()).isTrue();
        assertThat(disarmed.get("run_id").asText()).isEqualTo(runId);
        assertThat(disarmed.get("stalls")).hasSize(2);
        JsonNode cut = disarmed.get("stalls").get(1);
        assertThat(cut.get("end_ns").asLong() - cut.get("start_ns").asLong()).isLessThan(5000 * MS);
        assertThat(gate.openWindow()).isNull();

        JsonNode again = admin.postJson("/disarm", "{}").json();
        assertThat(again.get("disarmed").asBoolean()).isFalse();
        assertThat(again.get("run_id").isNull()).isTrue();
        assertThat(again.get("stalls")).isEmpty();
    }

    @Test
    void clock_answers_the_monotonic_clock_the_wall_time_and_the_pid() throws Exception {
        AdminClient admin = start();
        long beforeNanos = System.nanoTime();
        Instant beforeWall = Instant.now();
        JsonNode clock = admin.get("/clock").json();
        long afterNanos = System.nanoTime();

        assertThat(clock.get("now_ns").asLong()).isBetween(beforeNanos, afterNanos);
        assertThat(clock.get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
        Instant wall = Instant.parse(clock.get("wall_time").asText());
        assertThat(wall).isBetween(beforeWall.minusSeconds(1), Instant.now().plusSeconds(1));
        assertThat(clock.get("wall_time_ms").asLong()).isEqualTo(wall.toEpochMilli());
    }

    @Test
    void health_answers_the_version_the_commit_whether_armed_and_the_hosts_details() throws Exception {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("entry_points", List.of("jetty12:Server#handle"));
        details.put("version", "not allowed to override");
        AdminClient admin = start(AdminConfig.builder().version("0.1.0").healthDetails(() -> details));
        JsonNode before = admin.get("/health").json();
        admin.postJson("/arm", SEEDED);
        JsonNode after = admin.get("/health").json();

        assertThat(before.get("status").asText()).isEqualTo("ok");
        assertThat(before.get("version").asText()).isEqualTo("0.1.0");
        assertThat(before.get("commit").asText()).isEqualTo(BuildInfo.current().commit());
        assertThat(before.get("armed").asBoolean()).isFalse();
        assertThat(before.get("entry_points").get(0).asText()).isEqualTo("jetty12:Server#handle");
        assertThat(after.get("armed").asBoolean()).isTrue();
        assertThat(after.get("last_run_id").asText()).isEqualTo(controller.lastRunId());
    }

    @Test
    void health_survives_a_failing_details_supplier() throws Exception {
        AdminClient admin = start(AdminConfig.builder().healthDetails(() -> {
            throw new IllegalStateException("boom");
        }));
        AdminClient.Answer answer = admin.get("/health");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("details_error").asText()).isEqualTo("java.lang.IllegalStateException: boom");
    }

    @Test
    void metrics_answer_prometheus_text_with_stalls_stalled_seconds_and_held_requests() throws Exception {
        AdminClient admin = start();
        // a window long enough for a thread started once it is open to enter it on a loaded box
        controller.arm(StallPlan.explicit(List.of(new PlannedStall(0, 10 * MS, 200 * MS)), StallKind.BLOCK));
        poll().until(gate::openWindow, Objects::nonNull);
        Thread request = new Thread(gate::pass);
        request.start();
        request.join(5_000);
        awaitDisarmedByHorizon();

        AdminClient.Answer answer = admin.get("/metrics");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
        assertThat(answer.body()).contains(
                "# TYPE loadsmith_stalls_total counter\nloadsmith_stalls_total 1\n",
                "# TYPE loadsmith_held_requests_total counter\nloadsmith_held_requests_total 1\n",
                "# TYPE loadsmith_stall_records_dropped_total counter\nloadsmith_stall_records_dropped_total 0\n",
                "# TYPE loadsmith_armed gauge\nloadsmith_armed 0\n",
                "# TYPE loadsmith_stall_active gauge\nloadsmith_stall_active 0\n",
                "# TYPE loadsmith_pause_observer gauge\nloadsmith_pause_observer 0\n");
        double stalledSeconds = Double.parseDouble(answer.body().lines()
                .filter(line -> line.startsWith("loadsmith_stalled_seconds_total ")).findFirst().orElseThrow().split(" ")[1]);
        // the window's real length: at least the planned 200 ms; the upper bound only catches a window that
        // outlived its end by far (0.25 s failed once at a load average of 25-40)
        assertThat(stalledSeconds).isBetween(0.200, 1.0);
    }

    @Test
    void metrics_say_a_stall_window_is_open_while_it_is() throws Exception {
        AdminClient admin = start();
        controller.arm(StallPlan.explicit(List.of(new PlannedStall(0, 10 * MS, 60_000 * MS)), StallKind.BLOCK));
        poll().until(gate::openWindow, Objects::nonNull);
        String inside = admin.get("/metrics").body();
        controller.disarm();
        String after = admin.get("/metrics").body();

        assertThat(inside).contains("\nloadsmith_stall_active 1\n", "\nloadsmith_armed 1\n", "\nloadsmith_stalls_total 0\n");
        assertThat(after).contains("\nloadsmith_stall_active 0\n", "\nloadsmith_armed 0\n", "\nloadsmith_stalls_total 1\n");
    }

    @Test
    void pauses_pages_the_observed_windows_and_health_and_metrics_count_them() throws Exception {
        try (PauseObserver observer = PauseObserver.start(Clock.system())) {
            AdminClient admin = start(AdminConfig.builder().pauses(observer));
            long beforeNanos = System.nanoTime();
            System.gc();
            long afterNanos = System.nanoTime();

            JsonNode gc = awaitSafepointInside(admin, beforeNanos, afterNanos);
            long index = gc.get("index").asLong();
            JsonNode later = admin.get("/pauses?since_index=" + (index + 1)).json();
            JsonNode health = admin.get("/health").json().get("pauses");
            String metrics = admin.get("/metrics").body();

            assertThat(gc.get("source").asText()).isEqualTo("safepoint");
            assertThat(gc.get("gc").asText()).contains("System.gc()");
            assertThat(gc.get("label").asText()).isEqualTo(gc.get("operation").asText() + " " + gc.get("gc").asText());
            assertThat(gc.get("time_to_safepoint_ns").asLong()).isBetween(0L, gc.get("end_ns").asLong() - gc.get("start_ns").asLong());
            assertThat(later.get("pauses")).allSatisfy(pause -> assertThat(pause.get("index").asLong()).isGreaterThan(index));
            assertThat(later.get("observing").asBoolean()).isTrue();
            assertThat(later.get("jfr").asText()).isEqualTo("on");
            assertThat(health.get("observing").asBoolean()).isTrue();
            assertThat(health.get("safepoints").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(health.get("dropped").asLong()).isZero();
            assertThat(health.get("sleeper_park_ms").asLong()).isEqualTo(1);
            assertThat(health.get("records_kept").asLong()).isGreaterThanOrEqualTo(health.get("safepoints").asLong() + health.get("sleeper").asLong());
            assertThat(health.get("records_max").asLong()).isEqualTo(PauseObserver.MAX_RECORDS);
            assertThat(health.has("jfr_memory")).as("an observer given no JfrMemory").isFalse();
            assertThat(metrics).contains("# TYPE loadsmith_pauses_total counter\nloadsmith_pauses_total{source=\"safepoint\"} ",
                    "\nloadsmith_pauses_total{source=\"sleeper\"} ", "\nloadsmith_pause_records_dropped_total 0\n",
                    "\nloadsmith_pause_observer 1\n", "\nloadsmith_pause_observer_jfr 1\n");
        }
    }

    /**
     * An observer of {@code whenArmed}: idle (no thread, no JFR recording) until the first call, which has it
     * start and stop JFR once; idle again until {@code POST /arm}, observing
     * until a {@code POST /disarm} plus the grace, as {@code /health} says, idle again with its pauses still
     * served; armed again with a plan of no stalls, observing until its horizon plus the grace.
     */
    @Test
    void a_when_armed_observer_runs_from_an_arm_to_the_end_of_its_run_and_health_says_so() throws Exception {
        java.util.Set<Long> started = java.util.concurrent.ConcurrentHashMap.newKeySet();
        jdk.jfr.FlightRecorderListener counting = new jdk.jfr.FlightRecorderListener() {
            @Override
            public void recordingStateChanged(jdk.jfr.Recording recording) {
                // by its start time, not its state: the notice of a start can come after the recording has stopped
                if (recording.getStartTime() != null) {
                    started.add(recording.getId());
                }
            }
        };
        jdk.jfr.FlightRecorder.addListener(counting);
        try (PauseObserver observer = PauseObserver.whenArmed(Clock.system(), Duration.ofMillis(300))) {
            AdminClient admin = start(AdminConfig.builder().pauses(observer));
            assertThat(started).as("nothing started before the first call").isEmpty();
            // the first call (here a clock probe, as a tester's) has the observer start JFR once, then idle
            assertThat(admin.get("/clock").status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> started.size() == 1
                    && admin.get("/health").json().get("pauses").get("jfr").asText().equals("idle")
                    && !threadNamed(PauseObserver.PREPARE_THREAD) && openRecordings() == 0);
            assertObserverIdle(admin);

            // its one stall a minute on: armed, between stalls
            AdminClient.Answer armed = admin.postJson("/arm", "{\"stalls\": [{\"offset_ms\": 60000, \"duration_ms\": 10}],"
                    + " \"kind\": \"block\"}");
            assertThat(armed.status()).as(armed.body()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.get("/health").json().get("pauses").get("jfr").asText().equals("on"));
            assertThat(admin.get("/health").json().get("pauses").get("running").asBoolean()).isTrue();
            assertThat(threadNamed(PauseObserver.SLEEPER_THREAD)).isTrue();
            assertThat(openRecordings()).isEqualTo(1);
            long beforeNanos = System.nanoTime();
            System.gc();
            long afterNanos = System.nanoTime();
            JsonNode gc = awaitSafepointInside(admin, beforeNanos, afterNanos);

            assertThat(admin.postJson("/disarm", "{}").json().get("disarmed").asBoolean()).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> !admin.get("/health").json().get("pauses").get("running").asBoolean()
                    && !threadNamed(PauseObserver.SLEEPER_THREAD) && openRecordings() == 0);
            assertObserverIdle(admin);
            assertThat(safepointInside(admin.get("/pauses").json(), beforeNanos, afterNanos)).isEqualTo(gc);

            // a plan of no stalls (a control run's) runs the observer the same way: to its horizon plus the grace
            AdminClient.Answer control = admin.postJson("/arm", "{\"stalls\": [], \"horizon_ms\": 200}");
            assertThat(control.status()).as(control.body()).isEqualTo(200);
            assertThat(control.json().get("stalls").size()).isZero();
            assertThat(control.json().get("horizon_ns").asLong()).isEqualTo(200_000_000L);
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.get("/health").json().get("pauses").get("running").asBoolean());
            await().atMost(Duration.ofSeconds(30)).until(() -> !admin.get("/health").json().get("pauses").get("running").asBoolean()
                    && !threadNamed(PauseObserver.SLEEPER_THREAD) && openRecordings() == 0);
            assertObserverIdle(admin);
        } finally {
            jdk.jfr.FlightRecorder.removeListener(counting);
        }
    }

    private static void assertObserverIdle(AdminClient admin) throws Exception {
        JsonNode pauses = admin.get("/health").json().get("pauses");
        assertThat(pauses.get("observing").asBoolean()).isTrue();
        assertThat(pauses.get("mode").asText()).isEqualTo("armed");
        assertThat(pauses.get("running").asBoolean()).isFalse();
        assertThat(pauses.get("jfr").asText()).isEqualTo("idle");
        assertThat(threadNamed(PauseObserver.SLEEPER_THREAD)).isFalse();
        assertThat(openRecordings()).isZero();
        assertThat(admin.get("/pauses").json().get("observing").asBoolean()).isTrue();
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    private static int openRecordings() {
        return jdk.jfr.FlightRecorder.isInitialized() ? jdk.jfr.FlightRecorder.getFlightRecorder().getRecordings().size() : 0;
    }

    /** Polls {@code GET /pauses} (JFR delivers up to ~2 s late) for {@link #safepointInside}; on a timeout the message shows the last page. */
    private static JsonNode awaitSafepointInside(AdminClient admin, long fromNanos, long toNanos) {
        JsonNode page = await("a safepoint inside [" + fromNanos + ", " + toNanos + "]").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> admin.get("/pauses").json(), pauses -> safepointInside(pauses, fromNanos, toNanos) != null);
        return safepointInside(page, fromNanos, toNanos);
    }

    /**
     * The System.gc() safepoint inside the bracket: G1 may run a collection of its own (a preventive one) inside
     * it too, before the one asked for.
     */
    private static JsonNode safepointInside(JsonNode page, long fromNanos, long toNanos) {
        for (JsonNode pause : page.get("pauses")) {
            if (pause.get("source").asText().equals("safepoint") && pause.path("gc").asText().contains("System.gc()")
                    && pause.get("start_ns").asLong() >= fromNanos
                    && pause.get("end_ns").asLong() <= toNanos) {
                return pause;
            }
        }
        return null;
    }

    @Test
    void without_an_observer_pauses_answers_an_empty_page_and_says_so() throws Exception {
        AdminClient admin = start();
        JsonNode page = admin.get("/pauses?since_index=3").json();

        assertThat(page.get("observing").asBoolean()).isFalse();
        assertThat(page.get("next_index").asLong()).isEqualTo(3);
        assertThat(page.get("pauses")).isEmpty();
        assertThat(admin.get("/health").json().get("pauses").get("observing").asBoolean()).isFalse();
        assertThat(admin.get("/metrics").body()).doesNotContain("loadsmith_pauses_total");
    }

    @Test
    void the_admin_threads_pass_an_open_window_of_the_gate() throws Exception {
        AdminClient admin = start(AdminConfig.builder().healthDetails(() -> {
            gate.pass(); // would wait 5 s if the admin threads were not exempt
            return Map.of("passed", true);
        }));
        controller.arm(StallPlan.explicit(List.of(new PlannedStall(0, 0, 5_000 * MS)), StallKind.BLOCK));
        poll().until(gate::openWindow, Objects::nonNull);
        long beforeNanos = System.nanoTime();
        JsonNode health = admin.get("/health").json();

        assertThat(health.get("passed").asBoolean()).isTrue();
        assertThat(System.nanoTime() - beforeNanos).isLessThan(2_000 * MS);
        assertThat(gate.openWindow().held()).isZero();
    }

    @Test
    void every_thread_of_the_admin_server_is_a_daemon_so_the_host_can_exit() throws Exception {
        AdminClient admin = start();
        assertThat(admin.get("/health").status()).isEqualTo(200);
        List<Thread> serverThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(AdminServer.THREAD_NAME_PREFIX) || t.getName().equals("HTTP-Dispatcher"))
                .toList();
        assertThat(serverThreads).extracting(Thread::getName).contains("HTTP-Dispatcher");
        assertThat(serverThreads).allMatch(Thread::isDaemon);
    }

    @Test
    void an_arm_refusal_answers_409_with_its_reason_and_arms_nothing() throws Exception {
        AtomicReference<String> reason = new AtomicReference<>("no entry point instrumented yet");
        AdminClient admin = start(AdminConfig.builder().armRefusal(() -> Optional.ofNullable(reason.get())));

        AdminClient.Answer refused = admin.postJson("/arm", SEEDED);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.error()).isEqualTo("no entry point instrumented yet");
        assertThat(controller.armed()).isFalse();

        reason.set(null);
        assertThat(admin.postJson("/arm", SEEDED).status()).isEqualTo(200);
    }

    // ---- bad input -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "bad run_id | {\"stalls\": [{\"offset_ms\": 1, \"duration_ms\": 1}], \"run_id\": \"a b\"} | `run_id: must be 1 to 64 letters, digits, '.', '_', ':' or '-' (got \"a b\")`",
        "malformed JSON | {\"seed\": 7, | body: malformed JSON at line 1, column 12: Unexpected end-of-input within/between Object entries",
        "not an object | [1, 2] | `body: must be a JSON object such as {\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 100, \"min_gap_ms\": 500, \"horizon_ms\": 60000, \"kind\": \"block\"}`",
        "trailing content | {\"stalls\": [{\"offset_ms\": 1, \"duration_ms\": 1}]} {} | body: unexpected content after the JSON object at line 1, column 51",
        "unknown field | {\"seed\": 7, \"colour\": \"red\"} | `colour: unknown field (a seeded plan takes seed, mean_interval_ms, duration_ms, min_gap_ms, horizon_ms, kind, run_id; an explicit one takes stalls, horizon_ms, kind, run_id)`",
        "seed as a string | {\"seed\": \"7\"} | seed: must be an integer (got the string \"7\")",
        "seed as a fraction | {\"seed\": 7.5} | seed: must be an integer (got the number 7.5)",
        "seed too big | {\"seed\": 99999999999999999999} | seed: must fit in 64 bits (got 99999999999999999999)",
        "duration as a string | {\"duration_ms\": \"100ms\"} | duration_ms: must be a number of milliseconds (got the string \"100ms\")",
        "kind as a number | {\"kind\": 1} | kind: must be a string (got the number 1)",
        "unknown kind | `{\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 100, \"min_gap_ms\": 500, \"horizon_ms\": 60000, \"kind\": \"nap\"}` | kind: must be \"block\" or \"spin\" (got \"nap\")",
        "missing field | {\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 100, \"min_gap_ms\": 500} | `horizon_ms: missing (a seeded plan takes seed, mean_interval_ms, duration_ms, min_gap_ms, horizon_ms, kind, run_id; an explicit one takes stalls, horizon_ms, kind, run_id)`",
        "field twice | {\"seed\": 7, \"seed\": 8} | seed: given twice",
        "min gap below duration | {\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 100, \"min_gap_ms\": 50, \"horizon_ms\": 60000} | min_gap_ms: must be >= duration, start to start (got 50.0 ms < 100.0 ms)",
        "absurd mean interval | {\"seed\": 7, \"mean_interval_ms\": 2e9, \"duration_ms\": 100, \"min_gap_ms\": 500, \"horizon_ms\": 60000} | mean_interval_ms: must be at most 1.0E9 ms (got 2.0E9 ms)",
        "zero duration | {\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 0, \"min_gap_ms\": 500, \"horizon_ms\": 60000} | duration_ms: must be > 0 (got 0.0 ms)",
        "stalls not an array | {\"stalls\": {}} | stalls: must be an array of {\"offset_ms\": ..., \"duration_ms\": ...} (got an object)",
        "stall not an object | {\"stalls\": [5]} | stalls[0]: must be an object {\"offset_ms\": ..., \"duration_ms\": ...} (got the number 5)",
        "stall without offset | {\"stalls\": [{\"duration_ms\": 5}]} | stalls[0].offset_ms: missing",
        "stall with unknown field | {\"stalls\": [{\"offset_ms\": 5, \"duration_ms\": 5, \"at\": 1}]} | stalls[0].at: unknown field (a stall takes offset_ms, duration_ms)",
        "overlapping stalls | {\"stalls\": [{\"offset_ms\": 100, \"duration_ms\": 50}, {\"offset_ms\": 120, \"duration_ms\": 50}]} | stalls[1].offset_ms: overlaps the stall before it (starts at 120.0 ms, before 150.0 ms)",
        "seeded and explicit mixed | {\"seed\": 7, \"stalls\": [{\"offset_ms\": 100, \"duration_ms\": 50}]} | `seed: not allowed with stalls (an explicit plan takes stalls, horizon_ms, kind, run_id; a seeded one takes seed, mean_interval_ms, duration_ms, min_gap_ms, horizon_ms, kind, run_id)`",
        "stall over the cap | {\"seed\": 7, \"mean_interval_ms\": 40000, \"duration_ms\": 10001, \"min_gap_ms\": 20000, \"horizon_ms\": 60000} | duration_ms: 10001.0 ms is over the cap max_stall = 10000 ms (set by the service, not raisable through the API)",
        "horizon over the cap | {\"seed\": 7, \"mean_interval_ms\": 4000, \"duration_ms\": 100, \"min_gap_ms\": 500, \"horizon_ms\": 3600001} | horizon_ms: 3600001.0 ms is over the cap max_horizon = 3600000 ms (set by the service, not raisable through the API)",
        "explicit horizon over the cap | {\"stalls\": [{\"offset_ms\": 3600000, \"duration_ms\": 1}]} | stalls: the last stall ends 3600001 ms after arming, over the cap max_horizon = 3600000 ms (set by the service, not raisable through the API)",
        "an offset that would wrap around | {\"stalls\": [{\"offset_ms\": 1e308, \"duration_ms\": 5}]} | stalls[0].offset_ms: 1.0E308 ms is over the cap max_horizon = 3600000 ms (set by the service, not raisable through the API)",
        "share over the cap | {\"seed\": 7, \"mean_interval_ms\": 150, \"duration_ms\": 100, \"min_gap_ms\": 100, \"horizon_ms\": 60000} | duration_ms: the plan stalls 66.3 % of its horizon, over the cap max_stalled_share = 50.0 % (set by the service, not raisable through the API)",
        "no stalls and no horizon | {\"stalls\": []} | `horizon_ms: missing (a plan of no stalls, \"stalls\": [], observes for its horizon)`",
        "a horizon before the last stall ends | {\"stalls\": [{\"offset_ms\": 100, \"duration_ms\": 50}], \"horizon_ms\": 120} | horizon_ms: must reach the end of the last stall (got 120.0 ms, before 150.0 ms)",
        "no stalls, horizon over the cap | {\"stalls\": [], \"horizon_ms\": 3600001} | horizon_ms: 3600001.0 ms is over the cap max_horizon = 3600000 ms (set by the service, not raisable through the API)",
        "explicit share over the cap | {\"stalls\": [{\"offset_ms\": 0, \"duration_ms\": 100}]} | stalls: the plan stalls 100.0 % of its horizon, over the cap max_stalled_share = 50.0 % (set by the service, not raisable through the API)",
    })
    void a_bad_arm_body_answers_400_naming_the_field(String what, String body, String error) throws Exception {
        AdminClient admin = start();
        AdminClient.Answer answer = admin.postJson("/arm", body);
        assertThat(answer.status()).as(what).isEqualTo(400);
        assertThat(answer.contentType()).isEqualTo("application/json");
        assertThat(answer.error()).isEqualTo(error);
        assertThat(controller.armed()).isFalse();
    }

    @Test
    void an_oversized_body_answers_413_with_or_without_a_content_length() throws Exception {
        AdminClient admin = start();
        String big = "{\"seed\": 7, \"kind\": \"" + "x".repeat(70_000) + "\"}";

        AdminClient.Answer declared = admin.postJson("/arm", big);
        assertThat(declared.status()).isEqualTo(413);
        assertThat(declared.error()).isEqualTo("body: 70023 bytes is over the limit of 65536 bytes");

        AdminClient.Answer chunked = admin.postChunked("/arm", big.getBytes());
        assertThat(chunked.status()).isEqualTo(413);
        assertThat(chunked.error()).isEqualTo("body: over the limit of 65536 bytes");
        assertThat(admin.get("/health").status()).isEqualTo(200);
    }

    @Test
    void a_wrong_content_type_answers_415() throws Exception {
        AdminClient admin = start();
        AdminClient.Answer form = admin.post("/arm", "application/x-www-form-urlencoded", SEEDED);
        assertThat(form.status()).isEqualTo(415);
        assertThat(form.error()).isEqualTo("Content-Type: must be application/json (got application/x-www-form-urlencoded)");
        AdminClient.Answer none = admin.post("/arm", null, SEEDED);
        assertThat(none.status()).isEqualTo(415);
        assertThat(none.error()).isEqualTo("Content-Type: must be application/json (got none)");
        assertThat(admin.post("/arm", "Application/JSON; charset=utf-8", SEEDED).status()).isEqualTo(200);
    }

    @Test
    void a_wrong_method_answers_405_with_the_allowed_one() throws Exception {
        AdminClient admin = start();
        AdminClient.Answer getArm = admin.get("/arm");
        assertThat(getArm.status()).isEqualTo(405);
        assertThat(getArm.error()).isEqualTo("method GET not allowed on /arm (use POST)");
        assertThat(getArm.headers().firstValue("Allow")).hasValue("POST");
        AdminClient.Answer deleteStalls = admin.method("DELETE", "/stalls");
        assertThat(deleteStalls.status()).isEqualTo(405);
        assertThat(deleteStalls.error()).isEqualTo("method DELETE not allowed on /stalls (use GET)");
        AdminClient.Answer head = admin.method("HEAD", "/health");
        assertThat(head.status()).isEqualTo(405);
        assertThat(head.headers().firstValue("Allow")).hasValue("GET");
        assertThat(admin.get("/health").status()).isEqualTo(200);
    }

    @Test
    void an_unknown_path_answers_404_listing_the_endpoints() throws Exception {
        AdminClient.Answer answer = start().get("/armm");
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.error()).isEqualTo("no such endpoint: GET /armm (the admin API has POST /arm, POST /disarm, "
                + "GET /stalls, GET /pauses, GET /clock, GET /health, GET /metrics)");
    }

    @Test
    void bad_query_parameters_answer_400_naming_them() throws Exception {
        AdminClient admin = start();
        assertThat(admin.get("/stalls?since_index=-1").error()).isEqualTo("since_index: must be an integer >= 0 (got -1)");
        assertThat(admin.get("/stalls?since_index=abc").error()).isEqualTo("since_index: must be an integer >= 0 (got abc)");
        assertThat(admin.get("/stalls?page=2").error()).isEqualTo("page: unknown parameter (GET /stalls takes run_id, since_index)");
        assertThat(admin.get("/stalls?run_id=a&run_id=b").error()).isEqualTo("run_id: given twice");
        assertThat(admin.get("/clock?x=1").error()).isEqualTo("query: /clock takes no parameters (got x=1)");
        assertThat(admin.get("/stalls?page=2").status()).isEqualTo(400);
        assertThat(admin.get("/pauses?since_index=-1").error()).isEqualTo("since_index: must be an integer >= 0 (got -1)");
        assertThat(admin.get("/pauses?run_id=1").error()).isEqualTo("run_id: unknown parameter (GET /pauses takes since_index)");
    }

    @Test
    void disarm_with_fields_answers_400() throws Exception {
        AdminClient.Answer answer = start().postJson("/disarm", "{\"now\": true}");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.error()).isEqualTo("body: /disarm takes no fields (send nothing or {})");
    }

    // ---- the token -------------------------------------------------------------------------------

    @Test
    void with_a_token_every_call_needs_it() throws Exception {
        AdminClient admin = start(AdminConfig.builder().token("s3cret"));

        AdminClient.Answer missing = admin.get("/health");
        assertThat(missing.status()).isEqualTo(401);
        assertThat(missing.error()).isEqualTo("missing token: send the header Authorization: Bearer TOKEN");
        assertThat(missing.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"loadsmith\"");

        assertThat(admin.get("/pauses").status()).isEqualTo(401);
        AdminClient.Answer wrong = admin.token("s3cre").postJson("/arm", SEEDED);
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.error()).isEqualTo("wrong token");
        assertThat(controller.armed()).isFalse();

        assertThat(admin.token("s3cret").postJson("/arm", SEEDED).status()).isEqualTo(200);
        assertThat(admin.get("/health").status()).isEqualTo(200);
    }

    @Test
    void the_token_can_come_from_a_file(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "from-file\n");
        AdminClient admin = start(AdminConfig.builder().tokenFile(file));
        assertThat(admin.get("/clock").status()).isEqualTo(401);
        assertThat(admin.token("from-file").get("/clock").status()).isEqualTo(200);
    }

    @Test
    void binding_beyond_loopback_without_a_token_is_refused_at_start() {
        assertThatThrownBy(() -> AdminServer.start(AdminConfig.builder().host("0.0.0.0").port(0).build(), controller))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("admin: binding to 0.0.0.0 (not loopback) needs a token (token or tokenFile): "
                        + "the stall API will not be served unauthenticated beyond this host");
    }

    @Test
    void a_port_in_use_is_refused_at_start_naming_the_address() {
        start();
        int port = servers.get(0).address().getPort();
        assertThatThrownBy(() -> AdminServer.start(AdminConfig.builder().port(port).build(), controller))
                .isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageStartingWith("admin: cannot listen on 127.0.0.1:" + port + ": ");
    }

    @Test
    void an_empty_or_missing_token_file_is_refused_at_start(@TempDir Path dir) throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), " \n");
        assertThatThrownBy(() -> AdminServer.start(AdminConfig.builder().tokenFile(empty).port(0).build(), controller))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokenFile: " + empty + ": the first line is empty (it must hold the token)");
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> AdminServer.start(AdminConfig.builder().tokenFile(missing).port(0).build(), controller))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("tokenFile: " + missing + " does not exist");
    }

    @Test
    void caps_set_by_the_service_apply() throws Exception {
        AdminClient admin = start(AdminConfig.builder().maxStall(Duration.ofMillis(50)).maxStalledShare(0.01));
        assertThat(admin.postJson("/arm", SEEDED).error())
                .isEqualTo("duration_ms: 100.0 ms is over the cap max_stall = 50 ms (set by the service, not raisable through the API)");
    }

    private void awaitDisarmedByHorizon() {
        poll().until(() -> !controller.armed());
    }

    /** Polls every millisecond (the windows awaited here are open for 50 ms or more), for at most 10 s. */
    private static ConditionFactory poll() {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1));
    }
}
