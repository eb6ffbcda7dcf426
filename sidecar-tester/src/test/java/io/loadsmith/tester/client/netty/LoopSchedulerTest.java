package io.loadsmith.tester.client.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Order and threads of the event-loop scheduler; no timing is asserted. */
class LoopSchedulerTest {

    private static final long MS = 1_000_000L;

    @Test
    void tasks_at_the_same_moment_run_in_the_order_they_were_added() throws Exception {
        try (LoopScheduler loop = LoopScheduler.start()) {
            List<Integer> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(100);
            loop.at(loop.nanoTime(), () -> {
                long moment = loop.nanoTime() + 20 * MS;
                for (int i = 0; i < 100; i++) {
                    int n = i;
                    loop.at(moment, () -> {
                        order.add(n);
                        done.countDown();
                    });
                }
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(order).isEqualTo(range(100));
        }
    }

    @Test
    void earlier_moments_run_first_whatever_the_order_they_were_added_in() throws Exception {
        try (LoopScheduler loop = LoopScheduler.start()) {
            List<Integer> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(4);
            loop.at(loop.nanoTime(), () -> {
                long base = loop.nanoTime() + 10 * MS;
                for (int n : new int[] {3, 1, 4, 2}) {
                    loop.at(base + n * 3 * MS, () -> {
                        order.add(n);
                        done.countDown();
                    });
                }
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(order).containsExactly(1, 2, 3, 4);
        }
    }

    @Test
    void tasks_posted_from_other_threads_run_on_the_loop_in_moment_order_ties_in_posting_order() throws Exception {
        try (LoopScheduler loop = LoopScheduler.start()) {
            int threads = 4;
            int perThread = 2_000;
            long base = loop.nanoTime() + 20 * MS;
            CountDownLatch posted = new CountDownLatch(1);
            loop.at(loop.nanoTime(), () -> { // holds the loop until every task is posted: order is not a race
                try {
                    posted.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<long[]> ran = new ArrayList<>(); // {moment, thread, index}; loop thread only
            AtomicBoolean offLoop = new AtomicBoolean();
            CountDownLatch done = new CountDownLatch(threads * perThread);
            List<Thread> posters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                posters.add(new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(thread);
                    for (int i = 0; i < perThread; i++) {
                        long moment = base + random.nextInt(20) * MS; // many ties
                        int index = i;
                        loop.at(moment, () -> {
                            if (!loop.inThread()) {
                                offLoop.set(true);
                            }
                            ran.add(new long[] {moment, thread, index});
                            done.countDown();
                        });
                    }
                }));
            }
            posters.forEach(Thread::start);
            for (Thread poster : posters) {
                poster.join();
            }
            posted.countDown();
            assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(offLoop).isFalse();
            assertThat(ran).hasSize(threads * perThread);
            for (int i = 1; i < ran.size(); i++) {
                long[] before = ran.get(i - 1);
                long[] after = ran.get(i);
                assertThat(after[0]).as("moment of task %d", i).isGreaterThanOrEqualTo(before[0]);
                if (after[0] == before[0] && after[1] == before[1]) {
                    assertThat(after[2]).as("a tie from one thread keeps its posting order").isGreaterThan(before[2]);
                }
            }
        }
    }

    @Test
    void in_thread_is_true_on_the_loop_only() throws Exception {
        try (LoopScheduler loop = LoopScheduler.start()) {
            assertThat(loop.inThread()).isFalse();
            AtomicBoolean seen = new AtomicBoolean();
            CountDownLatch done = new CountDownLatch(1);
            loop.at(loop.nanoTime(), () -> {
                seen.set(loop.inThread());
                done.countDown();
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(seen).isTrue();
        }
    }

    @Test
    void a_task_that_throws_does_not_stop_the_loop() throws Exception {
        try (LoopScheduler loop = LoopScheduler.start()) {
            CountDownLatch done = new CountDownLatch(1);
            long now = loop.nanoTime();
            loop.at(now, () -> {
                throw new IllegalStateException("thrown on purpose by the test");
            });
            loop.at(now + MS, done::countDown);
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void a_task_added_for_a_moment_in_the_past_runs() throws Exception {
        try (LoopScheduler loop = LoopScheduler.start()) {
            CountDownLatch done = new CountDownLatch(2);
            loop.at(loop.nanoTime() - 5_000 * MS, done::countDown);
            loop.at(loop.nanoTime(), () -> loop.at(loop.nanoTime() - MS, done::countDown));
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static List<Integer> range(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }
}
