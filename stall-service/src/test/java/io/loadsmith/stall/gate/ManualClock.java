package io.loadsmith.stall.gate;

import io.loadsmith.stall.clock.Clock;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when the test says so. */
final class ManualClock implements Clock {
    private final AtomicLong nowNanos = new AtomicLong(1_000_000_000L);

    @Override
    public long nanoTime() {
        return nowNanos.get();
    }

    void set(long nanos) {
        nowNanos.set(nanos);
    }
}
