package io.loadsmith.tester.scheduler;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.engine.LoadRun;
import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.engine.TesterSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The system scheduler's own thread: order, waking, and completions posted back from another thread. On a
 * clock the test sets where the test is about order; on the system clock where it is about the real path
 * (a few tens of ms: the engine's logic is tested on the virtual scheduler, {@link SchedulerTest}).
 */
class SystemSchedulerTest {

    @Test
    void system_scheduler_runs_tasks_in_order_never_before_their_moment() throws InterruptedException {
        List<Long> lateness = Collections.synchronizedList(new ArrayList<>());
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(3);
        try (SystemScheduler scheduler = SystemScheduler.start()) {
            // posted from one task on the scheduler's thread, so that a slow test thread cannot reorder them
            scheduler.at(scheduler.nanoTime(), () -> {
                long base = scheduler.nanoTime();
                for (int i : new int[] {3, 1, 2}) {
                    long at = base + i * 2_000_000L;
                    scheduler.at(at, () -> {
                        lateness.add(scheduler.nanoTime() - at);
                        order.add(i);
                        done.countDown();
                    });
                }
            });
            assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(order).containsExactly(1, 2, 3);
        assertThat(lateness).allSatisfy(l -> assertThat(l).isNotNegative());
    }

    /** The real path: completions arrive on another thread and are posted back to the scheduler's thread. */
    @Test
    void a_run_on_the_system_scheduler_counts_every_request_answered_from_another_thread(@org.junit.jupiter.api.io.TempDir
                                                                                          java.nio.file.Path dir)
            throws Exception {
        java.util.concurrent.ScheduledExecutorService answers = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        java.util.Set<Thread> sendThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
        io.loadsmith.tester.transport.Transport transport = new io.loadsmith.tester.transport.Transport() {
            @Override
            public void send(io.loadsmith.tester.transport.RequestSpec request, io.loadsmith.tester.transport.Exchange exchange) {
                sendThreads.add(Thread.currentThread());
                exchange.sent(Clock.system().nanoTime());
                answers.schedule(() -> exchange.completed(Clock.system().nanoTime(), 200,
                        io.loadsmith.tester.transport.Outcome.OK, null), 1, TimeUnit.MILLISECONDS);
            }

            @Override
            public void cancelAll() {
            }
        };
        try (SystemScheduler scheduler = SystemScheduler.start()) {
            io.loadsmith.tester.result.RunResult result = LoadRun.run(
                    TesterSpec.open(2_000).arrivals(TesterSpec.Arrivals.CONSTANT).duration(20_000_000L),
                    scheduler, transport, RequestSource.get(java.net.URI.create("http://127.0.0.1:9/")), dir);
            assertThat(result.counts()).isEqualTo(new io.loadsmith.tester.result.RunResult.Counts(40, 40, 40, 0, 0, 0, 0));
            assertThat(result.latencyMs().service().p50()).isGreaterThanOrEqualTo(1.0);
        } finally {
            answers.shutdownNow();
        }
        assertThat(sendThreads).extracting(Thread::getName).containsExactly("loadsmith-scheduler");
    }

    /** Whether a thread is parked with the scheduler as its blocker (the scheduler's own thread, waiting). */
    private static boolean parkedOn(SystemScheduler scheduler) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> LockSupport.getBlocker(t) == scheduler);
    }

    /** A clock the test sets: the scheduler's waits then depend only on what the test posts. */
    private static final class HandClock implements Clock {
        volatile long now;

        @Override
        public long nanoTime() {
            return now;
        }
    }

    @Test
    void system_scheduler_runs_tasks_posted_from_another_thread_in_time_order_and_ties_in_the_order_posted()
            throws InterruptedException {
        HandClock clock = new HandClock();
        clock.now = 100;
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(4);
        try (SystemScheduler scheduler = SystemScheduler.start(clock, 0)) {
            scheduler.at(0, () -> { // holds the scheduler's thread while the test posts
                holding.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();
            for (String name : new String[] {"e@50", "a@10", "b@10", "c@30"}) {
                long at = Long.parseLong(name.substring(2));
                scheduler.at(at, () -> {
                    ran.add(name);
                    done.countDown();
                });
            }
            release.countDown();
            assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(ran).containsExactly("a@10", "b@10", "c@30", "e@50");
    }

    @Test
    void system_scheduler_parked_for_a_later_task_wakes_for_an_earlier_one_posted_from_another_thread()
            throws InterruptedException {
        HandClock clock = new HandClock();
        List<String> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch early = new CountDownLatch(1);
        try (SystemScheduler scheduler = SystemScheduler.start(clock, 0)) {
            scheduler.at(60_000_000_000L, () -> ran.add("in a minute")); // the scheduler parks for a minute
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1)).until(() -> parkedOn(scheduler));
            scheduler.at(0, () -> {
                ran.add("now");
                early.countDown();
            });
            assertThat(early.await(5, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(ran).containsExactly("now");
    }
}
