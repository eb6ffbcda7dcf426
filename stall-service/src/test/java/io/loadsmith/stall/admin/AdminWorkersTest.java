package io.loadsmith.stall.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.stall.clock.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which exchange the admin server's executor cuts when a connection arrives in a crowd, on a clock that
 * moves only when the test says so: the decision is the clock's, not the box's speed. The exchanges are
 * tasks that block until interrupted, as the JDK server's do while they read a socket.
 */
@Timeout(60)
class AdminWorkersTest {

    private static final long MS = 1_000_000;
    private static final long EXCHANGE_LIMIT = 5_000 * MS;
    private static final long CROWDED_LIMIT = 1_000 * MS;
    private static final long CROWDED_READ_LIMIT = 20 * MS;
    private static final long TICK = 100 * MS;
    private static final long NO_TICK = TimeUnit.HOURS.toNanos(1);

    private final ManualClock clock = new ManualClock();
    private final List<AdminWorkers> started = new ArrayList<>();

    @AfterEach
    void close() {
        started.forEach(AdminWorkers::close);
    }

    @Test
    void an_arrival_with_every_worker_busy_cuts_the_oldest_reader_past_the_read_limit_and_runs_on_its_worker() throws Exception {
        AdminWorkers workers = workers(2);
        Exchange oldest = Exchange.reading();
        Exchange younger = Exchange.reading();
        runNow(workers, oldest);
        clock.advance(10 * MS);
        runNow(workers, younger);
        clock.advance(15 * MS); // oldest read 25 ms, younger 15 ms

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);

        assertThat(oldest.cut()).as("cut as the fresh call arrives, before any tick").isTrue();
        assertThat(younger.cut()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(younger.cut()).as("one waiting call, one cut").isFalse();
    }

    @Test
    void a_reader_under_the_limit_is_cut_when_it_reaches_it() throws Exception {
        AdminWorkers workers = workers(1);
        Exchange reader = Exchange.reading();
        runNow(workers, reader);
        clock.advance(5 * MS);

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);
        assertThat(reader.cut()).isFalse();
        clock.advance(15 * MS + 1);

        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(reader.cut()).isTrue();
    }

    @Test
    void only_as_many_readers_are_cut_as_calls_wait_and_exchanges_past_their_headers_are_left_to_the_crowded_limit() throws Exception {
        AdminWorkers workers = workers(3);
        Exchange handler = Exchange.handling();
        Exchange first = Exchange.reading();
        Exchange second = Exchange.reading();
        runNow(workers, handler);
        clock.advance(MS);
        runNow(workers, first);
        clock.advance(MS);
        runNow(workers, second);
        clock.advance(500 * MS);

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);

        assertThat(first.cut()).isTrue();
        assertThat(second.cut()).isFalse();
        assertThat(handler.cut()).as("its handler runs: only the 1 s crowded limit applies").isFalse();
        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(second.cut()).isFalse();
        assertThat(handler.cut()).isFalse();
    }

    @Test
    void a_reader_past_the_limit_is_left_alone_while_a_worker_is_free() throws Exception {
        AdminWorkers workers = workers(2);
        Exchange reader = Exchange.reading();
        runNow(workers, reader);
        clock.advance(100 * MS);

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);

        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(reader.cut()).isFalse();
    }

    @Test
    void a_body_being_read_counts_as_reading_and_its_answer_is_written_before_the_cut() throws Exception {
        AdminWorkers workers = workers(1);
        CountDownLatch answered = new CountDownLatch(1);
        Exchange body = new Exchange(true, answered::countDown);
        runNow(workers, body);
        clock.advance(CROWDED_READ_LIMIT + 1);

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);

        assertThat(answered.await(10, TimeUnit.SECONDS)).as("the answer left for the cut was written").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(body.cut()).isTrue();
    }

    @Test
    void an_exchange_left_draining_a_body_after_its_answer_counts_as_reading_from_the_answer_and_is_cut_at_the_read_limit() throws Exception {
        AdminWorkers workers = workers(1);
        Exchange drainer = Exchange.drainingAfterAnswer();
        runNow(workers, drainer);
        clock.advance(500 * MS); // its handler took 500 ms before it answered
        drainer.answer();

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);
        assertThat(drainer.cut()).as("drained for 0 ms").isFalse();
        clock.advance(CROWDED_READ_LIMIT + 1);

        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(drainer.cut()).isTrue();
    }

    @Test
    void a_reader_a_worker_takes_while_calls_wait_is_cut_when_it_reaches_the_read_limit_without_a_tick_or_an_arrival() throws Exception {
        AdminWorkers workers = workers(1, NO_TICK);
        Exchange first = Exchange.reading();
        runNow(workers, first);
        Exchange fresh = Exchange.handling();
        Exchange second = Exchange.reading();
        workers.execute(fresh);
        workers.execute(second); // the newest: taken first
        clock.advance(CROWDED_READ_LIMIT + 1);

        assertThat(second.running.await(10, TimeUnit.SECONDS)).as("the worker took the second reader").isTrue();
        assertThat(first.cut()).isTrue();
        assertThat(fresh.started()).isFalse();
        clock.advance(CROWDED_READ_LIMIT + 1);

        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(second.cut()).isTrue();
    }

    @Test
    void an_arrival_with_every_worker_reading_under_the_read_limit_gets_an_extra_worker_at_once_up_to_the_most() throws Exception {
        AdminWorkers workers = workers(1, 2, TICK);
        Exchange first = Exchange.reading();
        runNow(workers, first);
        clock.advance(5 * MS);

        Exchange second = Exchange.reading();
        runNow(workers, second); // on an extra worker, nobody cut
        assertThat(first.cut()).isFalse();
        assertThat(workers.threads()).isEqualTo(2);
        clock.advance(5 * MS);

        Exchange fresh = Exchange.handling();
        workers.execute(fresh);
        assertThat(fresh.started()).as("no third worker").isFalse();
        assertThat(workers.threads()).isEqualTo(2);
        clock.advance(10 * MS + 1); // first read 20 ms and more

        await().atMost(Duration.ofSeconds(10)).until(fresh::started);
        assertThat(first.cut()).isTrue();
        assertThat(second.cut()).isFalse();
    }

    @Test
    void an_extra_worker_leaves_once_nothing_waits_and_the_next_crowd_starts_another() throws Exception {
        AdminWorkers workers = workers(1, 2, NO_TICK);
        Exchange handler = Exchange.handling();
        runNow(workers, handler);
        CountDownLatch ran = new CountDownLatch(2);

        workers.execute(ran::countDown);
        await().atMost(Duration.ofSeconds(10)).until(() -> ran.getCount() == 1 && workers.threads() == 1);
        workers.execute(ran::countDown);

        assertThat(ran.await(10, TimeUnit.SECONDS)).as("the second call ran beside the handler").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> workers.threads() == 1);
        assertThat(handler.cut()).isFalse();
    }

    private AdminWorkers workers(int threads) {
        return workers(threads, threads, TICK);
    }

    private AdminWorkers workers(int threads, long tickNanos) {
        return workers(threads, threads, tickNanos);
    }

    private AdminWorkers workers(int threads, int maxThreads, long tickNanos) {
        AdminWorkers workers = new AdminWorkers(threads, maxThreads, tickNanos, EXCHANGE_LIMIT, CROWDED_LIMIT, CROWDED_READ_LIMIT,
                clock, task -> {
                    Thread thread = new Thread(task, "admin-workers-test");
                    thread.setDaemon(true);
                    return thread;
                });
        started.add(workers);
        return workers;
    }

    private static void runNow(AdminWorkers workers, Exchange exchange) throws InterruptedException {
        workers.execute(exchange);
        assertThat(exchange.running.await(10, TimeUnit.SECONDS)).as("a worker took the exchange").isTrue();
    }

    /**
     * An exchange that blocks until interrupted, after its handler has started ({@code headersRead}) or
     * before, and that may leave an answer for a cut, as the admin server's body reading does, or answer
     * when the test says so and then drain the rest of the request, as the JDK server does after an answer.
     */
    private static final class Exchange implements Runnable {
        private final boolean headersRead;
        private final Runnable answerOnCut;
        private final CountDownLatch answerNow;
        private final CountDownLatch running = new CountDownLatch(1);
        private final CountDownLatch draining = new CountDownLatch(1);
        private volatile Thread worker;
        private volatile boolean cut;

        Exchange(boolean headersRead, Runnable answerOnCut) {
            this(headersRead, answerOnCut, null);
        }

        private Exchange(boolean headersRead, Runnable answerOnCut, CountDownLatch answerNow) {
            this.headersRead = headersRead;
            this.answerOnCut = answerOnCut;
            this.answerNow = answerNow;
        }

        static Exchange reading() {
            return new Exchange(false, null);
        }

        static Exchange handling() {
            return new Exchange(true, null);
        }

        static Exchange drainingAfterAnswer() {
            return new Exchange(true, null, new CountDownLatch(1));
        }

        /** Lets a {@link #drainingAfterAnswer} exchange answer, and returns once it drains. */
        void answer() throws InterruptedException {
            answerNow.countDown();
            assertThat(draining.await(10, TimeUnit.SECONDS)).as("the exchange answered").isTrue();
        }

        @Override
        public void run() {
            if (headersRead) {
                AdminWorkers.requestHeadersRead();
            }
            if (answerOnCut != null) {
                AdminWorkers.answerOnCut(answerOnCut);
            }
            worker = Thread.currentThread();
            running.countDown();
            if (answerNow != null) {
                try {
                    answerNow.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                AdminWorkers.drainingRequest();
                draining.countDown();
            }
            while (!Thread.currentThread().isInterrupted()) {
                LockSupport.park(this); // returns on an interrupt and, unlike a wait, keeps the flag set
            }
            cut = true;
        }

        boolean started() {
            return running.getCount() == 0;
        }

        /**
         * Whether the worker was interrupted: its flag is set from the moment of the cut until the exchange
         * has ended, and {@code cut} from just before it ends.
         */
        boolean cut() {
            Thread thread = worker;
            return thread != null && thread.isInterrupted() || cut;
        }
    }
}
