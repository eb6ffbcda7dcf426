package io.loadsmith.tester.scheduler;

import java.util.function.BooleanSupplier;

/**
 * A scheduler on virtual time: a priority queue of events ordered by moment, ties broken by the order
 * in which they were added (a sequence number). Running an event sets now to its moment, so time jumps
 * from event to event and a simulated minute costs what its events cost.
 *
 * <p>Single-threaded: add and run events from one thread (tasks may add further events).
 */
public final class VirtualScheduler implements Scheduler {

    private final TaskQueue events = new TaskQueue();
    private long nowNanos;
    private long pauseFromNanos;
    private long pauseToNanos;

    /** Starts at 0 ns. */
    public VirtualScheduler() {
        this(0);
    }

    public VirtualScheduler(long startNanos) {
        this.nowNanos = startNanos;
    }

    @Override
    public long nanoTime() {
        return nowNanos;
    }

    /** Adds task at nanos; a moment in the past runs at the current time (after the events already due). */
    @Override
    public void at(long nanos, Runnable task) {
        events.add(Math.max(nanos, nowNanos), task);
    }

    /** Always true: the virtual scheduler is single-threaded, its caller is its thread. */
    @Override
    public boolean inThread() {
        return true;
    }

    /** True: time moves only while a caller drives it. */
    @Override
    public boolean drivenByCaller() {
        return true;
    }

    @Override
    public boolean driveUntil(BooleanSupplier done) {
        while (!done.getAsBoolean() && runNext()) {
            // the next event, at its moment
        }
        return done.getAsBoolean();
    }

    /**
     * Makes this scheduler's thread pause from {@code fromNanos} to {@code toNanos}, as a collection or a
     * starved host would stop a real loop: the events due in between run at {@code toNanos}, late, in their
     * order. One pause; a later call replaces it.
     */
    public void pause(long fromNanos, long toNanos) {
        this.pauseFromNanos = fromNanos;
        this.pauseToNanos = toNanos;
    }

    /** Runs the earliest event, if any; returns false when there was none. */
    public boolean runNext() {
        TaskQueue.Task event = events.poll();
        if (event == null) {
            return false;
        }
        long due = event.nanos();
        nowNanos = Math.max(nowNanos, due >= pauseFromNanos && due < pauseToNanos ? pauseToNanos : due);
        event.run();
        return true;
    }

    /** Runs every event due at or before nanos, then sets now to nanos (if later). */
    public void runUntil(long nanos) {
        TaskQueue.Task head;
        while ((head = events.peek()) != null && head.nanos() <= nanos) {
            runNext();
        }
        nowNanos = Math.max(nowNanos, nanos);
    }

    /** Runs events until none is left. */
    public void runAll() {
        while (runNext()) {
            // keep going
        }
    }

    /** Events waiting to run. */
    public int pending() {
        return events.size();
    }
}
