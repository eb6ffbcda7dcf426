package io.loadsmith.tester.engine;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.clock.PreciseWait;

import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The real-time scheduler: one daemon thread runs every task at its moment on {@link Clock#system()}. It
 * parks while the next moment is far and spins the last {@code spinNanos} through {@link PreciseWait}, so
 * a send leaves within microseconds of its intended time (on a quiet core). {@link #at} may be called
 * from any thread; a task posted for "now" by another thread while the scheduler is spinning towards a
 * later moment waits at most {@code spinNanos} (200 µs by default).
 *
 * <p>This is the one real-time piece of the tester. A task that throws is reported to the thread's
 * uncaught-exception handler and the scheduler goes on. {@link #close()} stops the thread.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {

    private final Clock clock;
    private final long spinNanos;
    private final ConcurrentLinkedQueue<Event> inbox = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private final Thread thread;
    private volatile boolean closed;
    private long sequence;

    private SystemScheduler(Clock clock, long spinNanos, String threadName) {
        this.clock = clock;
        this.spinNanos = spinNanos;
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    /** Starts a scheduler on the system clock, spinning the last 200 µs before each moment. */
    public static SystemScheduler start() {
        return start(Clock.system(), PreciseWait.DEFAULT_SPIN_NANOS);
    }

    /** Starts a scheduler on clock, spinning the last spinNanos before each moment. */
    public static SystemScheduler start(Clock clock, long spinNanos) {
        SystemScheduler scheduler = new SystemScheduler(clock, spinNanos, "loadsmith-scheduler");
        scheduler.thread.start();
        return scheduler;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public void at(long nanos, Runnable task) {
        inbox.add(new Event(nanos, task));
        if (Thread.currentThread() != thread) {
            LockSupport.unpark(thread);
        }
    }

    /** True when called on the scheduler's own thread. */
    public boolean onSchedulerThread() {
        return Thread.currentThread() == thread;
    }

    private void loop() {
        while (!closed) {
            Event posted;
            while ((posted = inbox.poll()) != null) {
                posted.seq = sequence++;
                events.add(posted);
            }
            Event head = events.peek();
            if (head == null) {
                LockSupport.park(this);
                continue;
            }
            long remaining = head.nanos - clock.nanoTime();
            if (remaining > spinNanos) {
                LockSupport.parkNanos(this, remaining - spinNanos);
                continue; // re-check the inbox: an earlier task may have arrived
            }
            if (remaining > 0 && !PreciseWait.until(clock, head.nanos, spinNanos)) {
                continue; // interrupted
            }
            events.poll();
            try {
                head.task.run();
            } catch (RuntimeException | Error e) {
                Thread.UncaughtExceptionHandler handler = thread.getUncaughtExceptionHandler();
                handler.uncaughtException(thread, e);
            }
        }
    }

    /** Stops the thread; tasks not yet run are discarded. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    private static final class Event implements Comparable<Event> {
        final long nanos;
        final Runnable task;
        long seq;

        Event(long nanos, Runnable task) {
            this.nanos = nanos;
            this.task = task;
        }

        @Override
        public int compareTo(Event other) {
            int byTime = Long.compare(nanos, other.nanos);
            return byTime != 0 ? byTime : Long.compare(seq, other.seq);
        }
    }
}
