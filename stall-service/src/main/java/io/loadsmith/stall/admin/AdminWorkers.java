package io.loadsmith.stall.admin;

import io.loadsmith.stall.clock.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The admin server's executor, which keeps slow clients from starving the API without touching the JDK
 * server's JVM-wide properties. The JDK server hands a connection to its executor once the connection's
 * first bytes arrive, and then reads the request and runs the handler on the worker thread, blocking.
 * So each exchange runs on one of a fixed number of workers, and a watchdog interrupts a worker (which
 * closes that connection: its socket channel is interruptible) when the exchange has run longer than
 * {@code exchangeLimitNanos}, or longer than {@code crowdedLimitNanos} while other connections wait. Waiting
 * exchanges are taken newest first (so a fresh call gets the next free worker, ahead of a crowd of idle
 * ones), and one that waited longer than {@code exchangeLimitNanos} is closed unread.
 *
 * <p>While the exchange's handler reads the request body it may leave an answer for the cut
 * ({@link #answerOnCut}): the watchdog then has it written (the 408, or the 413 of a body being drained)
 * on a thread of its own, while the worker is still blocked reading, and interrupts the worker once that
 * answer is out, or after {@link #ANSWER_LIMIT_MILLIS} if the client does not take it. Writing the answer
 * and interrupting both concern the exchange that left it, never a later one of the same worker.
 *
 * <p>Thread-safe. The watchdog runs on its own daemon thread every {@link #TICK_MILLIS} ms.
 */
final class AdminWorkers implements Executor {

    static final long TICK_MILLIS = 100;
    /** How long writing an answer for a cut may take before the worker is interrupted all the same. */
    static final long ANSWER_LIMIT_MILLIS = 1_000;

    private static final ThreadLocal<Worker> CURRENT = new ThreadLocal<>();

    private final LinkedBlockingDeque<Waiting> waiting = new LinkedBlockingDeque<>();
    private final Worker[] workers;
    private final ScheduledExecutorService watchdog;
    private final ExecutorService answerer;
    private final Clock clock;
    private final long exchangeLimitNanos;
    private final long crowdedLimitNanos;
    private volatile boolean closed;

    private record Waiting(Runnable task, long sinceNanos) {
    }

    /** One worker thread and the exchange it runs (guarded by the worker's monitor). */
    private final class Worker implements Runnable {
        private Thread thread;
        private Runnable current;
        private long startNanos;
        private boolean interrupted;
        private long generation;
        private Runnable answerOnCut;
        private long answerPendingSinceNanos = -1;

        @Override
        public void run() {
            CURRENT.set(this);
            synchronized (this) {
                thread = Thread.currentThread();
            }
            while (!closed) {
                Waiting next;
                try {
                    next = waiting.takeLast();
                } catch (InterruptedException e) {
                    continue;
                }
                boolean expired = clock.nanoTime() - next.sinceNanos() > exchangeLimitNanos;
                synchronized (this) {
                    current = next.task();
                    startNanos = clock.nanoTime();
                    interrupted = false;
                    generation++;
                    answerOnCut = null;
                    answerPendingSinceNanos = -1;
                }
                if (expired) {
                    Thread.currentThread().interrupt();
                }
                try {
                    next.task().run();
                } catch (RuntimeException ignored) {
                    // the JDK server's task handles its own errors; nothing may end the worker
                } finally {
                    synchronized (this) {
                        current = null;
                        answerOnCut = null;
                        answerPendingSinceNanos = -1;
                    }
                    Thread.interrupted();
                }
            }
        }

        synchronized void cutIfOverdue(long nowNanos, boolean crowded) {
            if (current == null) {
                return;
            }
            if (interrupted) {
                if (answerPendingSinceNanos >= 0 && nowNanos - answerPendingSinceNanos > ANSWER_LIMIT_MILLIS * 1_000_000) {
                    interruptNow(generation); // the client does not take the answer
                }
                return;
            }
            long ranNanos = nowNanos - startNanos;
            if (ranNanos > exchangeLimitNanos || crowded && ranNanos > crowdedLimitNanos) {
                interrupted = true;
                Runnable answer = answerOnCut;
                answerOnCut = null;
                if (answer == null) {
                    thread.interrupt();
                    return;
                }
                answerPendingSinceNanos = nowNanos;
                long cutGeneration = generation;
                answerer.execute(() -> {
                    try {
                        answer.run();
                    } finally {
                        interruptNow(cutGeneration);
                    }
                });
            }
        }

        /** Interrupts the worker if it still runs the exchange of {@code cutGeneration}. */
        synchronized void interruptNow(long cutGeneration) {
            if (current != null && generation == cutGeneration) {
                answerPendingSinceNanos = -1;
                thread.interrupt();
            }
        }

        synchronized void leaveAnswer(Runnable answer) {
            if (!interrupted) {
                answerOnCut = answer;
            }
        }

        /** Withdraws the answer left for a cut; false if the cut took it already. */
        synchronized boolean withdrawAnswer() {
            if (interrupted) {
                return false;
            }
            answerOnCut = null;
            return true;
        }
    }

    /**
     * Starts {@code threads} workers and the watchdog.
     *
     * @param exchangeLimitNanos how long one exchange (reading the request, handling, answering) may take
     * @param crowdedLimitNanos  how long one exchange may take while other connections wait for a worker
     * @param clock              the clock of those limits (the system's: they concern real sockets)
     */
    AdminWorkers(int threads, long exchangeLimitNanos, long crowdedLimitNanos, Clock clock, ThreadFactory threadFactory) {
        this.clock = clock;
        this.exchangeLimitNanos = exchangeLimitNanos;
        this.crowdedLimitNanos = crowdedLimitNanos;
        this.workers = new Worker[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker();
            threadFactory.newThread(workers[i]).start();
        }
        watchdog = Executors.newSingleThreadScheduledExecutor(threadFactory);
        answerer = Executors.newSingleThreadExecutor(threadFactory);
        watchdog.scheduleWithFixedDelay(this::watch, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * On a worker thread: leaves {@code answer} to be written if this exchange is cut before
     * {@link #withdrawAnswer} (elsewhere: does nothing). The answer runs on another thread while this one is
     * blocked, so it may touch only the response of this exchange.
     */
    static void answerOnCut(Runnable answer) {
        Worker worker = CURRENT.get();
        if (worker != null) {
            worker.leaveAnswer(answer);
        }
    }

    /**
     * On a worker thread: withdraws the answer left by {@link #answerOnCut}. Returns false when the cut has
     * taken it: the answer is being written and the exchange is about to be closed, so the caller must not
     * answer (it then waits for the cut, at most {@link #ANSWER_LIMIT_MILLIS} and a tick).
     */
    static boolean withdrawAnswer() {
        Worker worker = CURRENT.get();
        if (worker == null || worker.withdrawAnswer()) {
            return true;
        }
        try {
            Thread.sleep(ANSWER_LIMIT_MILLIS + 2 * TICK_MILLIS);
        } catch (InterruptedException cut) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    @Override
    public void execute(Runnable task) {
        waiting.addLast(new Waiting(task, clock.nanoTime()));
    }

    private void watch() {
        long now = clock.nanoTime();
        boolean crowded = !waiting.isEmpty();
        for (Worker worker : workers) {
            worker.cutIfOverdue(now, crowded);
        }
    }

    /** Stops the workers and the watchdog; exchanges still waiting are dropped. */
    void close() {
        closed = true;
        watchdog.shutdownNow();
        answerer.shutdownNow();
        waiting.clear();
        for (Worker worker : workers) {
            synchronized (worker) {
                if (worker.thread != null) {
                    worker.thread.interrupt();
                }
            }
        }
    }
}
