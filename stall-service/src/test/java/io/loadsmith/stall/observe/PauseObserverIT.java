package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The observer in this JVM: its threads, its start and stop. */
class PauseObserverIT {

    private static List<Thread> observerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("loadsmith-pause")).collect(Collectors.toList());
    }

    /** The JFR recordings open in this JVM (a {@code RecordingStream} is one while it runs). */
    static List<Recording> openRecordings() {
        return FlightRecorder.isInitialized() ? FlightRecorder.getFlightRecorder().getRecordings() : List.of();
    }

    @Test
    void every_thread_the_observer_starts_is_a_daemon_and_close_stops_them() {
        PauseObserver observer = PauseObserver.start(Clock.system());
        List<Thread> threads = observerThreads();

        assertThat(observer.jfrStatus()).isEqualTo("on");
        assertThat(threads).extracting(Thread::getName)
                .containsExactlyInAnyOrder(PauseObserver.SLEEPER_THREAD, SafepointStream.THREAD_NAME);
        assertThat(threads).allMatch(Thread::isDaemon);

        observer.close();
        await().until(() -> observerThreads().isEmpty());
    }

    /** The threads of an observer closed by an earlier test end a moment after its close: wait for them. */
    @org.junit.jupiter.api.BeforeEach
    void noObserverThreadIsLeftFromAnEarlierTest() {
        await().until(() -> observerThreads().isEmpty() && openRecordings().isEmpty());
    }

    /** prepare: JFR is started once and stopped, on a thread that then ends; nothing it saw is kept. */
    @Test
    void prepare_starts_jfr_once_ahead_of_the_first_run_and_leaves_the_observer_idle() {
        try (PauseObserver observer = PauseObserver.whenArmed(Clock.system())) {
            observer.prepare(Duration.ZERO);
            assertThat(observer.jfrStatus()).isIn(PauseObserver.PREPARING, PauseObserver.IDLE);
            await().atMost(Duration.ofSeconds(30)).until(() -> FlightRecorder.isInitialized());
            System.gc(); // a safepoint while the stream may still run: not kept
            await().atMost(Duration.ofSeconds(30)).until(() -> observerThreads().isEmpty() && openRecordings().isEmpty());

            assertThat(observer.running()).isFalse();
            assertThat(observer.jfrStatus()).isEqualTo(PauseObserver.IDLE);
            assertThat(observer.pauses(0).pauses()).isEmpty();
        }
    }

    /**
     * Idle (no thread, no recording) until a run, observing from its arm (a second arm extends the run), a
     * disarm ending it after the grace, idle again with what it saw kept; armed again and ended at once,
     * with a collection just before that end in.
     */
    @Test
    void when_armed_it_observes_from_each_arm_to_the_end_of_its_run_and_holds_nothing_in_between() {
        Clock clock = Clock.system();
        long graceNanos = Duration.ofMillis(300).toNanos();
        try (PauseObserver observer = PauseObserver.whenArmed(clock, Duration.ofNanos(graceNanos))) {
            assertIdle(observer);

            long armedAt = clock.nanoTime();
            observer.runArmed(armedAt, 0);
            observer.runArmed(armedAt, Duration.ofHours(1).toNanos()); // a second arm: the later end wins
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.jfrStatus().equals("on") && openRecordings().size() == 1);
            assertThat(observerThreads()).extracting(Thread::getName)
                    .containsExactlyInAnyOrder(PauseObserver.SLEEPER_THREAD, SafepointStream.THREAD_NAME);
            long beforeNanos = clock.nanoTime();
            System.gc();
            long afterNanos = clock.nanoTime();
            await().atMost(Duration.ofSeconds(30)).until(() -> allWindows(observer).stream().anyMatch(w ->
                    w.source() == PauseSource.SAFEPOINT && w.label().contains("System.gc()")
                            && w.startNanos() >= beforeNanos && w.endNanos() <= afterNanos));
            // past the end of the first arm alone and the longest wait for JFR after it: still observing
            long firstEndNanos = armedAt + graceNanos + PauseObserver.FINAL_WAIT_MILLIS * 1_000_000L;
            await().atMost(Duration.ofSeconds(30)).until(() -> clock.nanoTime() - firstEndNanos > 0);
            assertThat(observer.running()).isTrue();

            long disarmedAt = clock.nanoTime();
            observer.runEnded(disarmedAt);
            await().atMost(Duration.ofSeconds(30)).until(() -> !observer.running());
            assertThat(clock.nanoTime() - (disarmedAt + graceNanos)).isPositive();
            await().atMost(Duration.ofSeconds(30)).until(() -> observerThreads().isEmpty() && openRecordings().isEmpty());
            assertIdle(observer);
            List<PauseWindow> first = allWindows(observer);

            // a pause just before the end is in once it stops: a last clock sample, JFR's delivery awaited
            observer.runArmed(clock.nanoTime(), Duration.ofHours(1).toNanos());
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.jfrStatus().equals("on") && openRecordings().size() == 1);
            long beforeLast = clock.nanoTime();
            System.gc();
            long afterLast = clock.nanoTime();
            observer.runEnded(afterLast - graceNanos); // ends at once
            await().atMost(Duration.ofSeconds(30)).until(() -> !observer.running() && observerThreads().isEmpty()
                    && openRecordings().isEmpty());
            assertIdle(observer);
            List<PauseWindow> both = allWindows(observer);
            assertThat(both).startsWith(first.toArray(PauseWindow[]::new));
            assertThat(both.subList(first.size(), both.size())).anyMatch(w -> w.source() == PauseSource.SAFEPOINT
                    && w.label().contains("System.gc()") && w.startNanos() >= beforeLast && w.endNanos() <= afterLast);
        }
    }

    @Test
    void when_armed_a_close_while_observing_stops_it_for_good() {
        Clock clock = Clock.system();
        PauseObserver observer = PauseObserver.whenArmed(clock, Duration.ofSeconds(30));
        observer.runArmed(clock.nanoTime(), Duration.ofHours(1).toNanos());
        await().atMost(Duration.ofSeconds(30)).until(() -> observer.jfrStatus().equals("on"));

        observer.close();
        observer.runArmed(clock.nanoTime(), Duration.ofHours(1).toNanos());

        assertThat(observer.running()).isFalse();
        await().atMost(Duration.ofSeconds(30)).until(() -> observerThreads().isEmpty() && openRecordings().isEmpty());
    }

    private static void assertIdle(PauseObserver observer) {
        assertThat(observer.running()).isFalse();
        assertThat(observer.jfrStatus()).isEqualTo(PauseObserver.IDLE);
        assertThat(observerThreads()).isEmpty();
        assertThat(openRecordings()).isEmpty();
        assertThat(observer.finalisedUpTo(System.nanoTime())).isTrue();
    }

    @Test
    void without_jfr_the_sleeper_alone_runs_and_reports_no_safepoints() {
        try (PauseObserver observer = PauseObserver.start(Clock.system(), PauseObserver.DEFAULT_SLEEPER_THRESHOLD_NANOS, 10, false)) {
            assertThat(observer.jfrStatus()).isEqualTo("off");
            assertThat(observerThreads()).extracting(Thread::getName).containsExactly(PauseObserver.SLEEPER_THREAD);
            System.gc();
            assertThat(observer.pauses(0).pauses()).allMatch(w -> w.source() == PauseSource.SLEEPER
                    && w.label().equals(PauseWindow.UNATTRIBUTED));
        }
    }

    @Test
    void safepoints_only_runs_no_sleeper_and_once_finalised_holds_a_bracketed_thread_dump() {
        try (PauseObserver observer = PauseObserver.safepointsOnly(Clock.system())) {
            assertThat(observer.jfrStatus()).isEqualTo("on");
            assertThat(observerThreads()).extracting(Thread::getName)
                    .containsExactlyInAnyOrder(PauseObserver.SYNC_THREAD, SafepointStream.THREAD_NAME);
            ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
            long beforeNanos = System.nanoTime();
            ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
            long afterNanos = System.nanoTime();

            assertThat(observer.finalisedUpTo(afterNanos + 3_600_000_000_000L)).isFalse();
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.finalisedUpTo(afterNanos));
            List<PauseWindow> windows = allWindows(observer);
            assertThat(windows).allMatch(w -> w.source() == PauseSource.SAFEPOINT);
            assertThat(windows).anyMatch(w -> w.label().startsWith("ThreadDump")
                    && w.startNanos() >= beforeNanos && w.endNanos() <= afterNanos);
        }
    }

    /**
     * Its thread samples the clock when it starts and then only every interval (here an hour): a moment after
     * the first samples is not finalised until {@link PauseObserver#requestSync} has a sample taken at once.
     */
    @Test
    void safepoints_only_samples_the_clock_at_its_start_then_at_once_when_asked() {
        long beforeStart = System.nanoTime();
        try (PauseObserver observer = PauseObserver.safepointsOnly(Clock.system(), Duration.ofHours(1).toNanos())) {
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.finalisedUpTo(beforeStart));
            long afterFirstSamples = System.nanoTime();

            // for two of JFR's flushes: nothing samples the clock, so nothing after the first samples is final
            await().during(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5))
                    .until(() -> !observer.finalisedUpTo(afterFirstSamples));

            observer.requestSync();
            await().atMost(Duration.ofSeconds(30)).until(() -> observer.finalisedUpTo(afterFirstSamples));
        }
    }

    /**
     * A sleeper told to park 50 ms wakes about 20 times a second, not a thousand: its first ten wake-ups
     * (Linux's count of its thread's voluntary context switches) take at least half of ten parks; with a
     * 1 ms park they would take about 10 ms.
     */
    @Test
    void a_sleeper_with_a_longer_park_wakes_that_much_less_often() throws Exception {
        long parkNanos = Duration.ofMillis(50).toNanos();
        int wakeUps = 10;
        try (PauseObserver observer = PauseObserver.started(Clock.system(), true, false, parkNanos, Duration.ofHours(1).toNanos())) {
            assertThat(observer.sleeperParkNanos()).isEqualTo(parkNanos);
            // the thread names itself at its start: wait for that
            Path sleeper = await().atMost(Duration.ofSeconds(10)).until(PauseObserverIT::sleeperTask, Objects::nonNull);
            long before = ObserverPartsBench.voluntarySwitches(sleeper);
            long fromNanos = System.nanoTime();
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                    .until(() -> ObserverPartsBench.voluntarySwitches(sleeper) - before >= wakeUps);
            long tookNanos = System.nanoTime() - fromNanos;

            assertThat(tookNanos).as("ns for %d wake-ups", wakeUps).isGreaterThanOrEqualTo(wakeUps / 2 * parkNanos);
        }
    }

    @Test
    void the_sleepers_park_is_1_ms_by_default_and_may_be_up_to_100_ms() {
        try (PauseObserver observer = PauseObserver.start(Clock.system(), Duration.ofMillis(100))) {
            assertThat(observer.sleeperParkNanos()).isEqualTo(100_000_000L);
        }
        try (PauseObserver observer = PauseObserver.whenArmed(Clock.system())) {
            assertThat(observer.sleeperParkNanos()).isEqualTo(1_000_000L);
        }
        try (PauseObserver observer = PauseObserver.safepointsOnly(Clock.system(), Duration.ofHours(1).toNanos())) {
            assertThat(observer.sleeperParkNanos()).isZero();
        }
        for (Duration bad : new Duration[] {Duration.ofNanos(999_999), Duration.ofMillis(101), null}) {
            assertThatThrownBy(() -> PauseObserver.whenArmed(Clock.system(), Duration.ZERO, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("sleeperPark: must be from 1 to 100 ms (got " + bad + ")");
        }
    }

    /** The sleeper's task in {@code /proc/self/task} (its name, cut to 15 characters by Linux, is unique here), or null. */
    private static Path sleeperTask() throws IOException {
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            List<Path> sleepers = tasks.filter(task -> {
                try {
                    return Files.readString(task.resolve("comm")).strip().equals(PauseObserver.SLEEPER_THREAD.substring(0, 15));
                } catch (IOException e) {
                    return false; // a thread that ended meanwhile
                }
            }).collect(Collectors.toList());
            assertThat(sleepers).hasSizeLessThan(2);
            return sleepers.isEmpty() ? null : sleepers.get(0);
        }
    }

    @Test
    void without_jfr_every_window_is_final_at_once() {
        try (PauseObserver observer = PauseObserver.start(Clock.system(), PauseObserver.DEFAULT_SLEEPER_THRESHOLD_NANOS, 10, false)) {
            assertThat(observer.finalisedUpTo(System.nanoTime())).isTrue();
        }
    }

    /** Every window an observer holds. */
    private static List<PauseWindow> allWindows(PauseObserver observer) {
        List<PauseWindow> all = new ArrayList<>();
        PausePage page;
        long since = 0;
        do {
            page = observer.pauses(since);
            all.addAll(page.pauses());
            since = page.nextIndex();
        } while (page.more());
        return all;
    }
}
