package io.loadsmith.stall.admin;

import io.loadsmith.stall.clock.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The admin server's executor, which keeps slow clients from starving the API without touching the JDK
 * server's JVM-wide properties. The JDK server hands a connection to its executor once the connection's
 * first bytes arrive, and then reads the request and runs the handler on the worker thread, blocking.
 * So each exchange runs on one of a bounded number of workers, and a worker is interrupted (which closes
 * that connection: its socket channel is interruptible) when its exchange has run longer than
 * {@code exchangeLimitNanos}, or, while other connections wait for a worker, when it has been reading its
 * request for longer than {@code crowdedReadLimitNanos} or has run longer than {@code crowdedLimitNanos}.
 * The crowd is looked at when a connection arrives and no worker is free, not on a tick. Waiting exchanges
 * are taken newest first (so a fresh call gets the next free worker, ahead of the crowd), and one that
 * waited longer than {@code exchangeLimitNanos} is closed unread.
 *
 * <p>{@code threads} workers always run. When a connection arrives and every worker is busy with an
 * exchange that may not be cut yet, an extra worker starts and takes the newest waiting exchange at once,
 * up to {@code maxThreads} in all; an extra worker leaves as soon as nothing waits. So a fresh call in a
 * crowd of half-sent requests is served at once while fewer than {@code maxThreads} of them are read, and
 * otherwise waits for the next cut, at most {@code crowdedReadLimitNanos}, behind any crowd connections
 * the JDK server hands over after it ({@code maxThreads} of them every {@code crowdedReadLimitNanos}).
 *
 * <p>An exchange reads its request until its handler says the request line and headers are in
 * ({@link #requestHeadersRead}), again while it reads a body with an answer left for a cut, and again from
 * the moment its answer is out ({@link #drainingRequest}): the JDK server then reads and drops whatever the
 * handler left unread of the request body before it frees the worker, and a client that stopped inside
 * that body never sends the rest.
 *
 * <p>While the exchange's handler reads the request body it may leave an answer for the cut
 * ({@link #answerOnCut}): the watchdog then has it written (the 408, or the 413 of a body being drained)
 * on a thread of its own, while the worker is still blocked reading, and interrupts the worker once that
 * answer is out, or after {@link #ANSWER_LIMIT_MILLIS} if the client does not take it. Writing the answer
 * and interrupting both concern the exchange that left it, never a later one of the same worker.
 *
 * <p>Thread-safe. The watchdog runs on its own daemon thread every tick ({@link #TICK_MILLIS} ms in the
 * admin server), and, while connections wait, at the moment a reader reaches the read limit: the check is
 * armed when a connection arrives, when a worker takes an exchange, and when an exchange starts reading
 * again (a body with an answer left for a cut, or the drain after its answer).
 */
final class AdminWorkers implements Executor {

    static final long TICK_MILLIS = 100;
    /** How long writing an answer for a cut may take before the worker is interrupted all the same. */
    static final long ANSWER_LIMIT_MILLIS = 1_000;

    private static final ThreadLocal<Worker> CURRENT = new ThreadLocal<>();

    private final LinkedBlockingDeque<Waiting> waiting = new LinkedBlockingDeque<>();
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    private final int maxThreads;
    private final ThreadFactory threadFactory;
    private final ScheduledExecutorService watchdog;
    private final ExecutorService answerer;
    private final Clock clock;
    private final long exchangeLimitNanos;
    private final long crowdedLimitNanos;
    private final long crowdedReadLimitNanos;
    private long crowdCheckAtNanos = Long.MAX_VALUE; // guarded by this: when the next crowd check is due
    private volatile boolean closed;

    private record Waiting(Runnable task, long sinceNanos) {
    }

    /** One worker thread and the exchange it runs (guarded by the worker's monitor). */
    private final class Worker implements Runnable {
        private final boolean extra;
        private Thread thread;
        private Runnable current;
        private long startNanos;
        private boolean interrupted;
        private boolean headersRead;
        private long drainingSinceNanos = -1;
        private long generation;
        private Runnable answerOnCut;
        private long answerPendingSinceNanos = -1;

        Worker(boolean extra) {
            this.extra = extra;
        }

        @Override
        public void run() {
            CURRENT.set(this);
            synchronized (this) {
                thread = Thread.currentThread();
            }
            while (!closed) {
                Waiting next;
                try {
                    next = extra ? nextOrLeave(this) : waiting.takeLast();
                } catch (InterruptedException e) {
                    continue;
                }
                if (next == null) {
                    return;
                }
                long seatedNanos = clock.nanoTime();
                boolean expired = seatedNanos - next.sinceNanos() > exchangeLimitNanos;
                synchronized (this) {
                    current = next.task();
                    startNanos = seatedNanos;
                    interrupted = false;
                    headersRead = false;
                    drainingSinceNanos = -1;
                    generation++;
                    answerOnCut = null;
                    answerPendingSinceNanos = -1;
                }
                if (expired) {
                    Thread.currentThread().interrupt();
                } else {
                    checkCrowdAt(seatedNanos + crowdedReadLimitNanos);
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
                cut(nowNanos);
            }
        }

        /**
         * Since when this worker's exchange reads its request (its start, or the start of the drain after its
         * answer), or -1 when it does not (idle, handling, cut).
         */
        synchronized long readingSinceNanos() {
            if (current == null || interrupted) {
                return -1;
            }
            if (drainingSinceNanos >= 0) {
                return drainingSinceNanos;
            }
            return !headersRead || answerOnCut != null ? startNanos : -1;
        }

        /** Idle, or cut and about to take the next waiting exchange. */
        synchronized boolean freeOrFreeing() {
            return current == null || interrupted;
        }

        /** Cuts the exchange if it still reads the request it read since {@code sinceNanos}. */
        synchronized boolean cutReader(long sinceNanos, long nowNanos) {
            if (readingSinceNanos() != sinceNanos) {
                return false;
            }
            cut(nowNanos);
            return true;
        }

        /** Closes the exchange's connection, writing the answer it left for a cut first if there is one. */
        private void cut(long nowNanos) {
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

        /** Interrupts the worker if it still runs the exchange of {@code cutGeneration}. */
        synchronized void interruptNow(long cutGeneration) {
            if (current != null && generation == cutGeneration) {
                answerPendingSinceNanos = -1;
                thread.interrupt();
            }
        }

        synchronized void headersRead() {
            headersRead = true;
        }

        void draining() {
            long nowNanos = clock.nanoTime();
            synchronized (this) {
                drainingSinceNanos = nowNanos;
            }
            checkCrowdAt(nowNanos + crowdedReadLimitNanos);
        }

        void leaveAnswer(Runnable answer) {
            long readingSinceNanos;
            synchronized (this) {
                if (interrupted) {
                    return;
                }
                answerOnCut = answer;
                readingSinceNanos = startNanos;
            }
            checkCrowdAt(readingSinceNanos + crowdedReadLimitNanos);
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
     * @param maxThreads            how many workers may run while connections wait for one
     * @param tickNanos             how often the watchdog looks at every exchange's limits
     * @param exchangeLimitNanos    how long one exchange (reading the request, handling, answering) may take
     * @param crowdedLimitNanos     how long one exchange may take while other connections wait for a worker
     * @param crowdedReadLimitNanos how long one exchange may read its request while other connections wait
     * @param clock                 the clock of those limits (the system's: they concern real sockets)
     */
    AdminWorkers(int threads, int maxThreads, long tickNanos, long exchangeLimitNanos, long crowdedLimitNanos,
                 long crowdedReadLimitNanos, Clock clock, ThreadFactory threadFactory) {
        this.clock = clock;
        this.exchangeLimitNanos = exchangeLimitNanos;
        this.crowdedLimitNanos = crowdedLimitNanos;
        this.crowdedReadLimitNanos = crowdedReadLimitNanos;
        this.maxThreads = Math.max(threads, maxThreads);
        this.threadFactory = threadFactory;
        for (int i = 0; i < threads; i++) {
            startWorker(false);
        }
        watchdog = Executors.newSingleThreadScheduledExecutor(threadFactory);
        answerer = Executors.newSingleThreadExecutor(threadFactory);
        watchdog.scheduleWithFixedDelay(this::watch, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * On a worker thread: the exchange's request line and headers are in (its handler runs), so it no longer
     * counts as reading its request, except while it reads a body with an answer left for a cut. Elsewhere:
     * does nothing.
     */
    static void requestHeadersRead() {
        Worker worker = CURRENT.get();
        if (worker != null) {
            worker.headersRead();
        }
    }

    /**
     * On a worker thread: the exchange's answer is out (or, for an answer without a body, about to be: its
     * headers are all that is left to write), and what follows until the exchange ends is the JDK server
     * draining what the handler left unread of the request body. The exchange counts as reading its request
     * from now, so in a crowd a client that stopped inside that body is cut like any other reader: it has its
     * answer, and the cut closes the connection. Elsewhere: does nothing.
     */
    static void drainingRequest() {
        Worker worker = CURRENT.get();
        if (worker != null) {
            worker.draining();
        }
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
        relieveCrowd();
    }

    private void watch() {
        long now = clock.nanoTime();
        boolean crowded = !waiting.isEmpty();
        for (Worker worker : workers) {
            worker.cutIfOverdue(now, crowded);
        }
        relieveCrowd();
    }

    /** How many workers run now (the extra ones included). */
    int threads() {
        return workers.size();
    }

    /**
     * When more connections wait than workers are free (or cut already), cuts as many of the exchanges that
     * have been reading their request for longer than {@code crowdedReadLimitNanos}, oldest first; if that is
     * not enough, starts extra workers up to {@code maxThreads}, and if that is not enough either and younger
     * readers remain, looks again when the oldest of them reaches the limit. Runs on the JDK server's
     * dispatcher thread (from {@link #execute}) and on the watchdog's, and only interrupts, hands an answer to
     * the answer thread or starts a thread, so it never blocks either.
     */
    private synchronized void relieveCrowd() {
        if (closed) {
            return;
        }
        int free = 0;
        for (Worker worker : workers) {
            free += worker.freeOrFreeing() ? 1 : 0;
        }
        int wanted = waiting.size() - free;
        long now = clock.nanoTime();
        while (wanted > 0) {
            Worker oldest = null;
            long oldestSince = Long.MAX_VALUE;
            for (Worker worker : workers) {
                long since = worker.readingSinceNanos();
                if (since >= 0 && since < oldestSince) {
                    oldest = worker;
                    oldestSince = since;
                }
            }
            if (oldest == null || now - oldestSince < crowdedReadLimitNanos) {
                for (; wanted > 0 && workers.size() < maxThreads; wanted--) {
                    startWorker(true);
                }
                if (wanted > 0 && oldest != null) {
                    scheduleCrowdCheck(crowdedReadLimitNanos - (now - oldestSince));
                }
                return;
            }
            if (oldest.cutReader(oldestSince, now)) {
                wanted--;
            }
        }
    }

    /** Starts a worker: one that always runs, or an extra one that leaves once nothing waits. */
    private void startWorker(boolean extra) {
        Worker worker = new Worker(extra);
        workers.add(worker);
        try {
            threadFactory.newThread(worker).start();
        } catch (RuntimeException | OutOfMemoryError e) {
            workers.remove(worker); // no thread to be had: the running workers serve on
            if (!extra) {
                throw e;
            }
        }
    }

    /**
     * An extra worker's next exchange, or null once nothing waits: it has then left the workers. Both under
     * this monitor, so that {@link #relieveCrowd} never counts on a worker that is leaving.
     */
    private synchronized Waiting nextOrLeave(Worker worker) {
        Waiting next = waiting.pollLast();
        if (next == null) {
            workers.remove(worker);
        }
        return next;
    }

    /**
     * On a worker thread, outside its monitor: its exchange reads its request and reaches the read limit at
     * {@code limitNanos}; while connections wait, the crowd is looked at then.
     */
    private synchronized void checkCrowdAt(long limitNanos) {
        if (!waiting.isEmpty()) {
            scheduleCrowdCheck(limitNanos - clock.nanoTime());
        }
    }

    /** Looks at the crowd in {@code delayNanos} (at once if it is not positive), unless a check is due sooner. */
    private void scheduleCrowdCheck(long delayNanos) {
        long atNanos = clock.nanoTime() + Math.max(0, delayNanos);
        if (closed || atNanos >= crowdCheckAtNanos) {
            return;
        }
        crowdCheckAtNanos = atNanos;
        try {
            watchdog.schedule(() -> {
                synchronized (this) {
                    if (crowdCheckAtNanos == atNanos) {
                        crowdCheckAtNanos = Long.MAX_VALUE;
                    }
                }
                relieveCrowd();
            }, Math.max(0, delayNanos) + 1, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            crowdCheckAtNanos = Long.MAX_VALUE;
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
