package io.loadsmith.stall.gate;

import io.loadsmith.stall.clock.ManualClock;

import io.loadsmith.stall.plan.StallKind;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gate's logic on a manual clock: which threads it holds and when it lets them go. Real threads, no
 * timing assertions (the release moments on the real clock are checked in StallControllerIT and measured
 * in the benchmark).
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class StallGateTest {

    private static final long END_NANOS = 5_000_000_000L;

    private final ManualClock clock = new ManualClock();
    private final StallGate gate = new StallGate();
    private final List<Thread> started = new ArrayList<>();

    @AfterEach
    void closeWindows() throws InterruptedException {
        GateWindow window = gate.openWindow();
        if (window != null) {
            window.close();
        }
        for (Thread thread : started) {
            thread.join(5_000);
        }
    }

    @Test
    void an_idle_gate_lets_every_thread_through() {
        gate.pass();
        assertThat(gate.openWindow()).isNull();
    }

    @Test
    void a_block_window_holds_a_thread_parked_until_it_is_closed() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        CompletableFuture<Void> passed = passOnNewThread("request-1");

        awaitHeld(window, 1);
        awaitState(started.get(0), Thread.State.TIMED_WAITING);
        assertThat(passed).isNotDone();

        window.close();
        passed.get(5, TimeUnit.SECONDS);
        assertThat(window.held()).isEqualTo(1);
        assertThat(gate.openWindow()).isNull();
    }

    @Test
    void a_listener_is_told_of_each_hold_on_the_held_thread_and_one_that_throws_changes_nothing() throws Exception {
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        HoldListener listener = new HoldListener() {
            @Override
            public Object holding() {
                told.add("holding " + Thread.currentThread().getName());
                return Thread.currentThread().getName();
            }

            @Override
            public void released(Object holding) {
                told.add("released " + holding + " on " + Thread.currentThread().getName());
                throw new IllegalStateException("a listener that fails");
            }
        };
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK, listener);
        CompletableFuture<Void> passed = passOnNewThread("request-1");
        awaitHeld(window, 1);
        window.close();
        passed.get(5, TimeUnit.SECONDS);

        HoldListener throwing = new HoldListener() {
            @Override
            public Object holding() {
                throw new IllegalStateException("a listener that fails");
            }

            @Override
            public void released(Object holding) {
                told.add("released after a failed holding");
            }
        };
        GateWindow second = gate.open(clock, END_NANOS, StallKind.BLOCK, throwing);
        CompletableFuture<Void> passedAgain = passOnNewThread("request-2");
        awaitHeld(second, 1);
        assertThat(passedAgain).isNotDone();
        second.close();
        passedAgain.get(5, TimeUnit.SECONDS);

        assertThat(told).containsExactly("holding request-1", "released request-1 on request-1");
    }

    @Test
    void a_held_thread_is_released_when_the_clock_reaches_the_end_even_if_nobody_closes_the_window() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        CompletableFuture<Void> passed = passOnNewThread("request-1");
        awaitHeld(window, 1);

        clock.set(END_NANOS - 1);
        assertThat(passed).isNotDone();
        clock.set(END_NANOS);
        passed.get(5, TimeUnit.SECONDS); // it parks for at most 50 ms at a time, then reads the clock again
        assertThat(window.isClosed()).isFalse();
    }

    @Test
    void sixty_four_threads_are_all_held_and_all_released_by_one_close() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        List<CompletableFuture<Void>> passes = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            passes.add(passOnNewThread("request-" + i));
        }
        awaitHeld(window, 64);
        assertThat(passes).noneMatch(CompletableFuture::isDone);

        window.close();
        CompletableFuture.allOf(passes.toArray(CompletableFuture[]::new)).get(5, TimeUnit.SECONDS);
        assertThat(window.held()).isEqualTo(64);
    }

    @Test
    void a_spin_window_holds_a_thread_busy_until_it_is_closed() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.SPIN);
        CompletableFuture<Void> passed = passOnNewThread("request-1");
        awaitHeld(window, 1);
        assertThat(started.get(0).getState()).isEqualTo(Thread.State.RUNNABLE);
        assertThat(passed).isNotDone();

        window.close();
        passed.get(5, TimeUnit.SECONDS);
    }

    @Test
    void an_exempt_thread_passes_an_open_window_and_is_not_counted() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        CompletableFuture<Void> passed = new CompletableFuture<>();
        Thread admin = new Thread(() -> {
            StallGate.exemptCurrentThread();
            gate.pass();
            passed.complete(null);
        }, "admin");
        admin.start();
        started.add(admin);

        passed.get(5, TimeUnit.SECONDS);
        assertThat(window.held()).isZero();
        assertThat(StallGate.isCurrentThreadExempt()).isFalse();
    }

    @Test
    void a_thread_arriving_once_the_clock_has_reached_the_end_is_not_held() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        clock.set(END_NANOS);
        passOnNewThread("late").get(5, TimeUnit.SECONDS);
        assertThat(window.held()).isZero();
    }

    @Test
    void a_thread_arriving_after_the_close_is_not_held() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        window.close();
        passOnNewThread("late").get(5, TimeUnit.SECONDS);
        assertThat(window.held()).isZero();
    }

    @Test
    void an_interrupt_does_not_release_a_held_thread_and_its_flag_survives() throws Exception {
        GateWindow window = gate.open(clock, END_NANOS, StallKind.BLOCK);
        AtomicBoolean interruptedAfterPass = new AtomicBoolean();
        CompletableFuture<Void> passed = new CompletableFuture<>();
        Thread request = new Thread(() -> {
            gate.pass();
            interruptedAfterPass.set(Thread.currentThread().isInterrupted());
            passed.complete(null);
        }, "request");
        request.start();
        started.add(request);
        awaitHeld(window, 1);

        request.interrupt();
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(1)).until(() -> !passed.isDone());

        window.close();
        passed.get(5, TimeUnit.SECONDS);
        assertThat(interruptedAfterPass).isTrue();
    }

    @Test
    void opening_a_window_closes_the_one_before_it() throws Exception {
        GateWindow first = gate.open(clock, END_NANOS, StallKind.BLOCK);
        CompletableFuture<Void> passed = passOnNewThread("request-1");
        awaitHeld(first, 1);

        GateWindow second = gate.open(clock, END_NANOS, StallKind.BLOCK);
        passed.get(5, TimeUnit.SECONDS);
        assertThat(first.isClosed()).isTrue();
        assertThat(gate.openWindow()).isSameAs(second);
    }

    @Test
    void the_global_gate_is_one_instance() {
        assertThat(StallGate.global()).isSameAs(StallGate.global()).isNotSameAs(gate);
    }

    @Test
    void pass_global_holds_a_thread_at_the_global_gate_until_its_window_closes() throws Exception {
        GateWindow window = StallGate.global().open(clock, END_NANOS, StallKind.BLOCK);
        try {
            CompletableFuture<Void> passed = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                StallGate.passGlobal();
                passed.complete(null);
            }, "request-1");
            thread.setDaemon(true);
            thread.start();
            started.add(thread);

            awaitHeld(window, 1);
            assertThat(passed).isNotDone();
            window.close();
            passed.get(5, TimeUnit.SECONDS);
            assertThat(StallGate.global().openWindow()).isNull();
        } finally {
            window.close();
        }
    }

    private CompletableFuture<Void> passOnNewThread(String name) {
        CompletableFuture<Void> passed = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            gate.pass();
            passed.complete(null);
        }, name);
        thread.setDaemon(true);
        thread.start();
        started.add(thread);
        return passed;
    }

    /** Polls every millisecond, for at most 10 s. */
    private static ConditionFactory poll() {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1));
    }

    private static void awaitHeld(GateWindow window, long count) {
        poll().until(window::held, held -> held >= count);
        assertThat(window.held()).isEqualTo(count);
    }

    private static void awaitState(Thread thread, Thread.State state) {
        poll().until(thread::getState, state::equals);
    }
}
