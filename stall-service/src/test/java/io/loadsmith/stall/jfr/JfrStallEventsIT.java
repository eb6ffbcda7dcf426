package io.loadsmith.stall.jfr;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.ArmResult;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.control.StallRecord;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;
import jdk.jfr.Configuration;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The controller's windows as JFR events in a recording with JFR's {@code default} settings (what a plain
 * {@code -XX:StartFlightRecording} uses) and {@code loadsmith.HeldRequest} turned on from 0 ms: one
 * {@code loadsmith.Stall} per recorded window with the same edges and held count, and one
 * {@code loadsmith.HeldRequest} per request held, on the held thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JfrStallEventsIT {

    private static final long MS = 1_000_000L;

    @Test
    void a_default_recording_holds_one_stall_event_per_window_and_one_held_request_event_per_hold(@TempDir Path dir)
            throws Exception {
        StallGate gate = new StallGate();
        List<Thread> requests = new ArrayList<>();
        volatileStop = false;
        for (int i = 0; i < 2; i++) {
            Thread request = new Thread(() -> enterEveryWindow(gate), "request-" + i);
            request.setDaemon(true);
            request.start();
            requests.add(request);
        }
        Path file = dir.resolve("stalls.jfr");
        List<StallRecord> explicit;
        List<StallRecord> seeded;
        try (Recording recording = new Recording(Configuration.getConfiguration("default"));
             StallController controller = new StallController(Clock.system(), gate)) {
            recording.enable(HeldRequestEvent.class).withThreshold(Duration.ZERO);
            recording.start();
            ArmResult first = controller.arm(StallPlan.explicit(List.of(new PlannedStall(0, 50 * MS, 60 * MS),
                    new PlannedStall(1, 200 * MS, 40 * MS)), StallKind.BLOCK), "tester-run-1");
            await().atMost(Duration.ofSeconds(20)).until(() -> !controller.armed());
            ArmResult second = controller.arm(StallPlan.seeded(new SeededPlanSpec(7, 100 * MS, 30 * MS, 60 * MS, 400 * MS),
                    StallKind.SPIN));
            await().atMost(Duration.ofSeconds(20)).until(() -> !controller.armed());
            explicit = controller.stalls(first.runId(), 0).stalls();
            seeded = controller.stalls(second.runId(), 0).stalls();
            recording.stop();
            recording.dump(file);
        } finally {
            volatileStop = true;
            for (Thread request : requests) {
                request.join(5_000);
            }
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> stalls = named(events, "loadsmith.Stall");
        List<RecordedEvent> holds = named(events, "loadsmith.HeldRequest");

        assertThat(explicit).hasSize(2);
        assertThat(seeded).isNotEmpty();
        List<StallRecord> all = new ArrayList<>(explicit);
        all.addAll(seeded);
        assertThat(stalls).hasSize(all.size());
        for (StallRecord record : all) {
            RecordedEvent event = stalls.stream()
                    .filter(e -> e.getString("runId").equals(record.runId()) && e.getLong("index") == record.index())
                    .findFirst().orElseThrow(() -> new AssertionError("no loadsmith.Stall event for " + record));
            assertThat(event.getLong("plannedStartNanos")).isEqualTo(record.plannedStartNanos());
            assertThat(event.getLong("startNanos")).isEqualTo(record.startNanos());
            assertThat(event.getLong("endNanos")).isEqualTo(record.endNanos());
            assertThat(event.getLong("held")).isEqualTo(record.held());
            assertThat(event.getString("kind")).isEqualTo(record.kind().wireName());
            assertThat(event.getLong("window")).isEqualTo(record.durationNanos());
            assertThat(event.getLong("startLateness")).isEqualTo(record.startNanos() - record.plannedStartNanos());
            assertThat(event.getBoolean("cutShort")).isFalse();
            // begun before the start was read, ended after the end was: it spans the window
            assertThat(event.getDuration()).isGreaterThanOrEqualTo(Duration.ofNanos(record.durationNanos()));
            assertThat(event.getThread().getJavaName()).isEqualTo(StallController.THREAD_NAME);
            long heldEvents = holds.stream().filter(h -> h.getString("runId").equals(record.runId())
                    && h.getLong("stallIndex") == record.index()).count();
            assertThat(heldEvents).as("loadsmith.HeldRequest events of %s", record).isEqualTo(record.held());
        }
        RecordedEvent firstWindow = stalls.stream().filter(e -> e.getString("runId").equals(explicit.get(0).runId()))
                .min(Comparator.comparingLong(e -> e.getLong("index"))).orElseThrow();
        assertThat(firstWindow.getString("testerRunId")).isEqualTo("tester-run-1");
        assertThat(firstWindow.getBoolean("seeded")).isFalse();
        assertThat(firstWindow.getLong("plannedDuration")).isEqualTo(60 * MS);
        assertThat(firstWindow.getLong("plannedEndNanos")).isEqualTo(explicit.get(0).plannedStartNanos() + 60 * MS);
        RecordedEvent seededWindow = stalls.stream().filter(e -> e.getString("runId").equals(seeded.get(0).runId()))
                .findFirst().orElseThrow();
        assertThat(seededWindow.getString("testerRunId")).isNull();
        assertThat(seededWindow.getBoolean("seeded")).isTrue();
        assertThat(seededWindow.getLong("seed")).isEqualTo(7);
        assertThat(seededWindow.getString("kind")).isEqualTo("spin");
        assertThat(all.stream().mapToLong(StallRecord::held).sum()).as("holds in all").isPositive();
        for (RecordedEvent hold : holds) {
            assertThat(hold.getThread().getJavaName()).startsWith("request-");
            assertThat(hold.getDuration()).isPositive();
        }
    }

    @Test
    void the_stall_event_is_on_by_default_the_held_request_event_off_and_from_10_ms_neither_with_stack_traces() {
        assertThat(StallEvents.forThisJvm().reportsToJfr()).isTrue();
        for (Class<? extends jdk.jfr.Event> type : List.of(StallEvent.class, HeldRequestEvent.class)) {
            FlightRecorder.register(type);
            EventType eventType = EventType.getEventType(type);
            assertThat(eventType.getCategoryNames()).containsExactly("loadsmith");
            assertThat(defaultOf(eventType, "stackTrace")).as(eventType.getName()).isEqualTo("false");
        }
        assertThat(defaultOf(EventType.getEventType(StallEvent.class), "enabled")).isEqualTo("true");
        assertThat(defaultOf(EventType.getEventType(HeldRequestEvent.class), "enabled")).isEqualTo("false");
        assertThat(defaultOf(EventType.getEventType(HeldRequestEvent.class), "threshold")).isEqualTo("10 ms");
        assertThat(EventType.getEventType(StallEvent.class).getName()).isEqualTo("loadsmith.Stall");
        assertThat(EventType.getEventType(HeldRequestEvent.class).getName()).isEqualTo("loadsmith.HeldRequest");
    }

    private static String defaultOf(EventType type, String setting) {
        return type.getSettingDescriptors().stream().filter(d -> d.getName().equals(setting)).findFirst()
                .orElseThrow(() -> new AssertionError(type.getName() + " has no setting " + setting)).getDefaultValue();
    }

    private static volatile boolean volatileStop;

    /** A request thread: passes the gate whenever a window is open (held once per window), else waits 1 ms. */
    private static void enterEveryWindow(StallGate gate) {
        while (!volatileStop) {
            if (gate.openWindow() != null) {
                gate.pass();
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        List<RecordedEvent> named = new ArrayList<>();
        for (RecordedEvent event : events) {
            if (event.getEventType().getName().equals(name)) {
                named.add(event);
            }
        }
        return named;
    }
}
