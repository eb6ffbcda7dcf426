package io.loadsmith.tester.client.netty;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.scheduler.TaskQueue;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.Ticker;

/**
 * The event loop's I/O handler with the scheduler's tasks woven in: Netty calls {@link #run} once per turn
 * of its loop, and each turn is, in this order, one wait for I/O (or a poll), the I/O that is ready, then the
 * tasks that are due. So I/O runs before every burst of tasks, and between tasks that come close together.
 *
 * <p><b>The wait.</b> With a task due, or due before the loop could sleep and wake again in time, the turn
 * polls (a zero-timeout {@code epoll_wait}, Netty's {@code selectNow}) instead of waiting: the wait for a near
 * task reads and writes what is ready rather than spinning on the clock. Otherwise the turn waits in
 * {@code epoll_wait} with a deadline: the moment the next task must be woken for, or Netty's own next timer,
 * whichever is first. A wake-up more than {@value #COARSE_NANOS} ns ahead is armed
 * {@value #COARSE_MARGIN_NANOS} ns early (Netty may wait that long with a millisecond timeout) and planned
 * again from there.
 *
 * <p><b>The precision.</b> A task may run at most {@code precision} after its moment, never before it. The
 * wake-up for a task is set as late as that allows: its moment plus the precision, less how late wake-ups
 * have recently returned (a low estimate, plus {@value #LEAD_MARGIN_NANOS} ns, at most
 * {@value #MAX_LEAD_NANOS} ns). When that is after the
 * moment the loop sleeps past the moment and runs, in one turn, every task due by then (a coarse precision:
 * one wake-up per window, no spin); when it is before the moment the loop wakes early and polls I/O until
 * the moment (a fine precision).
 *
 * <p><b>The burst.</b> A turn runs at most {@value #MAX_BURST} due tasks, or tasks for
 * {@value #MAX_BURST_NANOS} ns, whichever ends first; the rest run in the next turn, after a poll of I/O.
 *
 * <p>Everything here runs on the loop's thread. A task that throws is reported to the thread's
 * uncaught-exception handler and the loop goes on.
 */
final class ScheduledIo implements IoHandler {

    /** The most due tasks one turn runs before I/O is polled again. */
    static final int MAX_BURST = 64;
    /** The longest one turn runs due tasks before I/O is polled again. */
    static final long MAX_BURST_NANOS = 100_000;
    /** The most the loop wakes (and polls) before a task's moment. */
    static final long MAX_LEAD_NANOS = 100_000;
    /** A wake-up further ahead than this is first armed coarse. */
    static final long COARSE_NANOS = 5_000_000;
    /** How much earlier a coarse wake-up is armed. */
    static final long COARSE_MARGIN_NANOS = 2_000_000;
    /** Added to the lateness of recent wake-ups when the wake-up for a task is set. */
    static final long LEAD_MARGIN_NANOS = 10_000;
    /** The lateness assumed before any wake-up was measured: Linux's default timer slack. */
    private static final long INITIAL_LATENESS_NANOS = 50_000;
    private static final long NO_WAKE = Long.MAX_VALUE;

    private final TaskQueue tasks;
    private final Clock clock;
    private final long tickerOrigin = Ticker.systemTicker().initialNanoTime();
    private final Turn turn = new Turn();
    private volatile long precisionNanos;
    private volatile boolean closed;
    // loop thread only
    private IoHandler io;
    private long latenessNanos = INITIAL_LATENESS_NANOS;

    ScheduledIo(TaskQueue tasks, Clock clock, long precisionNanos) {
        this.tasks = tasks;
        this.clock = clock;
        precision(precisionNanos);
    }

    /** This handler over Netty's own (epoll or NIO), which does the I/O; called once, as the loop starts. */
    ScheduledIo over(IoHandler nettyIo) {
        if (io != null) {
            throw new IllegalStateException("one loop, one I/O handler");
        }
        io = nettyIo;
        return this;
    }

    /** Sets how late a task may run after its moment (any thread; from the next turn on). */
    void precision(long nanos) {
        precisionNanos = Scheduler.checkedPrecision(nanos);
    }

    /** How much before a task's moment plus the precision the loop wakes for it, ns. */
    private long leadNanos() {
        return Math.min(MAX_LEAD_NANOS, latenessNanos + LEAD_MARGIN_NANOS);
    }

    /** From now on no task runs (the loop is closing). */
    void close() {
        closed = true;
    }

    @Override
    public int run(IoHandlerContext netty) {
        tasks.drainInbox();
        turn.plan(netty, clock.nanoTime());
        int handled = io.run(turn);
        if (turn.timed) {
            long late = clock.nanoTime() - turn.wakeAt;
            if (late >= 0) { // woken by the deadline, or by I/O after it: a (high) sample of the lateness
                learn(late);
            }
        }
        runDue();
        return handled;
    }

    /**
     * A low estimate of how late a wake-up returns: down at once, up by 1/8 of the gap (a high one, a
     * decaying maximum, made the loop poll through most of every 100 µs gap at 10,000/s, a core's worth).
     */
    private void learn(long lateNanos) {
        latenessNanos = lateNanos < latenessNanos ? lateNanos : latenessNanos + ((lateNanos - latenessNanos) >> 3);
    }

    /** Runs, in order, the tasks that are due, at most one burst of them. */
    private void runDue() {
        long now = clock.nanoTime();
        long burstEnd = now + MAX_BURST_NANOS;
        int ran = 0;
        TaskQueue.Task head;
        while (!closed && (head = tasks.peek()) != null && head.nanos() - now <= 0) {
            tasks.poll();
            try {
                head.run();
            } catch (RuntimeException | Error e) {
                Thread thread = Thread.currentThread();
                thread.getUncaughtExceptionHandler().uncaughtException(thread, e);
            }
            now = clock.nanoTime();
            if (++ran >= MAX_BURST || now - burstEnd >= 0) {
                return; // the next turn polls I/O first
            }
            tasks.drainInbox();
        }
    }

    /** What one turn's wait may do: Netty's own limits, narrowed by the next task's. */
    private final class Turn implements IoHandlerContext {
        private IoHandlerContext netty;
        private boolean poll;
        /** Whether the wait ends at a task's fine wake-up (then its lateness is learnt). */
        private boolean timed;
        /** The moment the wait must end for the next task (System.nanoTime), or NO_WAKE. */
        private long wakeAt;

        void plan(IoHandlerContext netty, long now) {
            this.netty = netty;
            TaskQueue.Task head = closed ? null : tasks.peek();
            poll = false;
            timed = false;
            wakeAt = NO_WAKE;
            if (head == null) {
                return;
            }
            long wake = head.nanos() + precisionNanos - leadNanos();
            if (head.nanos() - now <= 0 || wake - now <= 0) {
                poll = true;
            } else if (wake - now > COARSE_NANOS) {
                wakeAt = wake - COARSE_MARGIN_NANOS;
            } else {
                wakeAt = wake;
                timed = true;
            }
        }

        @Override
        public boolean canBlock() {
            return !poll && netty.canBlock();
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            long delay = netty.delayNanos(currentTimeNanos);
            return wakeAt == NO_WAKE ? delay : Math.max(0, Math.min(delay, wakeAt - currentTimeNanos));
        }

        @Override
        public long deadlineNanos() {
            long deadline = netty.deadlineNanos(); // on Netty's ticker (nanoTime less its origin); -1: none
            if (wakeAt == NO_WAKE) {
                return deadline;
            }
            long ours = wakeAt - tickerOrigin;
            return deadline == -1 ? ours : Math.min(deadline, ours);
        }

        @Override
        public void reportActiveIoTime(long activeNanos) {
            netty.reportActiveIoTime(activeNanos);
        }

        @Override
        public boolean shouldReportActiveIoTime() {
            return netty.shouldReportActiveIoTime();
        }
    }

    @Override
    public void initialize() {
        io.initialize();
    }

    @Override
    public void prepareToDestroy() {
        io.prepareToDestroy();
    }

    @Override
    public void destroy() {
        io.destroy();
    }

    @Override
    public IoRegistration register(IoHandle handle) throws Exception {
        return io.register(handle);
    }

    @Override
    public void wakeup() {
        io.wakeup();
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return io.isCompatible(handleType);
    }
}
