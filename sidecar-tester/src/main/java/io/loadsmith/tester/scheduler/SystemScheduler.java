package io.loadsmith.tester.scheduler;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.clock.PreciseWait;

import java.util.concurrent.locks.LockSupport;

/**
 * The real-time scheduler: one daemon thread runs every task at its moment on {@link Clock#system()}.
 *
 * <p><b>Waiting.</b> Tasks already due run at once, all of them in one batch, without waiting. When the
 * next task is in the future the thread parks until shortly before it and spins the rest, because a park
 * on Linux returns tens of microseconds to milliseconds late. The spin is adaptive: it covers the park
 * overshoot the thread has recently seen (a maximum that decays with every park), plus a small margin,
 * between {@value #MIN_SPIN_NANOS} ns and the {@code maxSpinNanos} given at start (200 µs by default). On
 * a quiet host that is about 60-80 µs of spin before a timed task instead of 200 µs, and no spin at all
 * for work that is due (a closed loop's completions).
 *
 * <p><b>Precision.</b> A task runs at most {@link #precision(long) precision} after its moment (when parks
 * return no later than recently seen), never before it: the thread parks until the moment plus the
 * precision less the spin, so with a precision longer than the spin it parks past the moment, does not spin,
 * and runs every task due by then in one batch.
 *
 * <p><b>Other threads.</b> {@link #at} may be called from any thread. A task from another thread goes
 * through a lock-free inbox the scheduler drains in batches; the caller wakes the scheduler only when it
 * is parked and the new task is earlier than what it parked for, so a scheduler that is running or
 * spinning costs the caller one compare-and-set, not a wake-up. A spinning scheduler notices a posted task
 * at once.
 *
 * <p>This is the one real-time piece of the tester. A task that throws is reported to the thread's
 * uncaught-exception handler and the scheduler goes on. {@link #close()} stops the thread.
 */
public final class SystemScheduler implements Scheduler, AutoCloseable {

    /** The least spin before a timed task, whatever the parks have shown. */
    static final long MIN_SPIN_NANOS = 20_000;
    /** Added to the observed park overshoot. */
    private static final long SPIN_MARGIN_NANOS = 10_000;
    /** What {@link #waitingUntil} holds while the thread is not parked. */
    private static final long NOT_PARKED = Long.MIN_VALUE;

    private final Clock clock;
    private final long maxSpinNanos;
    private final TaskQueue tasks = new TaskQueue();
    private final Thread thread;
    private volatile boolean closed;
    private volatile long precisionNanos = DEFAULT_PRECISION_NANOS;
    /** While parked: the moment of the task it parked for (Long.MAX_VALUE: none); else NOT_PARKED. */
    private volatile long waitingUntil = NOT_PARKED;
    /** A decaying maximum of how late timed parks returned. Scheduler thread only. */
    private long overshootNanos;

    private SystemScheduler(Clock clock, long maxSpinNanos, String threadName) {
        if (maxSpinNanos < 0) {
            throw new IllegalArgumentException("maxSpinNanos must be >= 0 (got " + maxSpinNanos + ")");
        }
        this.clock = clock;
        this.maxSpinNanos = maxSpinNanos;
        this.overshootNanos = maxSpinNanos;
        this.thread = new Thread(this::loop, threadName);
        this.thread.setDaemon(true);
    }

    /** Starts a scheduler on the system clock, spinning at most the last 200 µs before a timed task. */
    public static SystemScheduler start() {
        return start(Clock.system(), PreciseWait.DEFAULT_SPIN_NANOS);
    }

    /** Starts a scheduler on clock, spinning at most the last maxSpinNanos before a timed task. */
    public static SystemScheduler start(Clock clock, long maxSpinNanos) {
        SystemScheduler scheduler = new SystemScheduler(clock, maxSpinNanos, "loadsmith-scheduler");
        scheduler.thread.start();
        return scheduler;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    @Override
    public void at(long nanos, Runnable task) {
        if (Thread.currentThread() == thread) {
            tasks.add(nanos, task);
            return;
        }
        tasks.post(nanos, task);
        if (nanos < waitingUntil) { // parked, and this task is earlier than the one it waits for
            LockSupport.unpark(thread);
        }
    }

    /** True when called on the scheduler's own thread. */
    public boolean onSchedulerThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public boolean inThread() {
        return onSchedulerThread();
    }

    @Override
    public void precision(long nanos) {
        precisionNanos = Scheduler.checkedPrecision(nanos);
    }

    /** The spin before a timed task the scheduler currently uses (for benchmarks and tests). */
    long spinNanos() {
        return Math.min(maxSpinNanos, Math.max(MIN_SPIN_NANOS, overshootNanos + SPIN_MARGIN_NANOS));
    }

    private void loop() {
        while (!closed) {
            tasks.drainInbox();
            TaskQueue.Task head = tasks.peek();
            if (head == null) {
                park(Long.MAX_VALUE, 0);
                continue;
            }
            long now = clock.nanoTime();
            long remaining = head.nanos() - now;
            if (remaining <= 0) {
                runDue(now);
                continue;
            }
            long parkNanos = remaining + precisionNanos - spinNanos();
            if (parkNanos > 0) {
                park(head.nanos(), parkNanos);
                continue; // re-check the inbox: an earlier task may have arrived
            }
            while (clock.nanoTime() - head.nanos() < 0 && !tasks.hasPosted() && !closed) {
                Thread.onSpinWait();
            }
        }
    }

    /** Runs, in order, every task due at now. */
    private void runDue(long now) {
        TaskQueue.Task head;
        while ((head = tasks.peek()) != null && head.nanos() - now <= 0) {
            tasks.poll();
            try {
                head.run();
            } catch (RuntimeException | Error e) {
                Thread.UncaughtExceptionHandler handler = thread.getUncaughtExceptionHandler();
                handler.uncaughtException(thread, e);
            }
            if (closed) {
                return;
            }
        }
    }

    /** Parks for parkNanos (0: until woken) while waiting for the task at deadline; learns the overshoot. */
    private void park(long deadline, long parkNanos) {
        waitingUntil = deadline;
        if (tasks.hasPosted() || closed) { // posted before waitingUntil was visible: do not sleep on it
            waitingUntil = NOT_PARKED;
            return;
        }
        if (parkNanos == 0) {
            LockSupport.park(this);
            waitingUntil = NOT_PARKED;
            return;
        }
        long wakeAt = clock.nanoTime() + parkNanos;
        LockSupport.parkNanos(this, parkNanos);
        waitingUntil = NOT_PARKED;
        long late = clock.nanoTime() - wakeAt;
        if (late >= 0) { // a timed return (an unpark returns early)
            overshootNanos = Math.max(late, overshootNanos - (overshootNanos >> 4));
        }
    }

    /** Stops the thread; tasks not yet run are discarded. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
