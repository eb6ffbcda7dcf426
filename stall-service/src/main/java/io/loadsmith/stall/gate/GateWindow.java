package io.loadsmith.stall.gate;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.plan.StallKind;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One open stall window of a {@link StallGate}: it holds the threads that enter the gate until
 * {@link #close()} or until its clock reaches {@link #endNanos()}. Counts the threads it held.
 *
 * <p>No lost wake-ups: a waiting thread puts itself in the waiter queue before it checks
 * {@code closed} again, and {@code close()} sets {@code closed} before it drains the queue, so every
 * waiter either sees the window closed or is unparked by {@code close()}. A {@link HoldListener}, when the
 * window has one, is told of each hold on the held thread. Thread-safe.
 */
public final class GateWindow {

    /** Longest single park of a held thread; it then looks at its clock again (covers a manual clock). */
    private static final long MAX_PARK_NANOS = 50_000_000L;

    private final StallGate gate;
    private final Clock clock;
    private final long endNanos;
    private final StallKind kind;
    private final HoldListener listener; // null: none
    private final AtomicLong held = new AtomicLong();
    private final Queue<Thread> waiters = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    GateWindow(StallGate gate, Clock clock, long endNanos, StallKind kind, HoldListener listener) {
        this.gate = gate;
        this.clock = clock;
        this.endNanos = endNanos;
        this.kind = kind;
        this.listener = listener;
    }

    /** The planned end of the window, on its clock. */
    public long endNanos() {
        return endNanos;
    }

    public StallKind kind() {
        return kind;
    }

    /** How many threads entered the gate while this window was open (exempt threads excluded). */
    public long held() {
        return held.get();
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the window: no thread is held by it any more, and every thread it holds is released now.
     * Idempotent.
     */
    public void close() {
        closed = true;
        gate.cleared(this);
        Thread waiter;
        while ((waiter = waiters.poll()) != null) {
            LockSupport.unpark(waiter);
        }
    }

    private boolean over() {
        return closed || clock.nanoTime() - endNanos >= 0;
    }

    void hold() {
        if (over()) {
            return;
        }
        held.incrementAndGet();
        Object holding = listener == null ? null : holding();
        try {
            await();
        } finally {
            if (holding != null) {
                released(holding);
            }
        }
    }

    private void await() {
        if (kind == StallKind.SPIN) {
            while (!over()) {
                Thread.onSpinWait();
            }
            return;
        }
        Thread self = Thread.currentThread();
        boolean interrupted = false;
        waiters.add(self);
        try {
            long remaining;
            while (!closed && (remaining = endNanos - clock.nanoTime()) > 0) {
                LockSupport.parkNanos(this, Math.min(remaining, MAX_PARK_NANOS));
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
        } finally {
            if (!closed) {
                waiters.remove(self); // released by its own clock; a closed window has drained the queue
            }
            if (interrupted) {
                self.interrupt();
            }
        }
    }

    private Object holding() {
        try {
            return listener.holding();
        } catch (Throwable ignored) {
            return null; // the listener must not change the hold
        }
    }

    private void released(Object holding) {
        try {
            listener.released(holding);
        } catch (Throwable ignored) {
            // likewise
        }
    }
}
