package io.loadsmith.stall.clock;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when the test says so. */
public final class ManualClock implements Clock {
    private final AtomicLong nowNanos = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return nowNanos.get();
    }

    public void set(long nanos) {
        nowNanos.set(nanos);
    }

    public void advance(long nanos) {
        nowNanos.addAndGet(nanos);
    }
}
