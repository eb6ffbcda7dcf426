package io.loadsmith.stall.admin;

import io.loadsmith.stall.clock.Clock;
import java.util.concurrent.Executor;
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
 * <p>Thread-safe. The watchdog runs on its own daemon thread every {@link #TICK_MILLIS} ms.
 */
final class AdminWorkers implements Executor {

    static final long TICK_MILLIS = 100;

    private final LinkedBlockingDeque<Waiting> waiting = new LinkedBlockingDeque<>();
    private final Worker[] workers;
    private final ScheduledExecutorService watchdog;
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

        @Override
        public void run() {
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
                    }
                    Thread.interrupted();
                }
            }
        }

        synchronized void cutIfOverdue(long nowNanos, boolean crowded) {
            if (current == null || interrupted) {
                return;
            }
            long ranNanos = nowNanos - startNanos;
            if (ranNanos > exchangeLimitNanos || crowded && ranNanos > crowdedLimitNanos) {
                interrupted = true;
                thread.interrupt();
            }
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
        watchdog.scheduleWithFixedDelay(this::watch, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
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
