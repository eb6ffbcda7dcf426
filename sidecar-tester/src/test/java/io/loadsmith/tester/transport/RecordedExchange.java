package io.loadsmith.tester.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Records what a transport reported for one exchange, and on which thread it completed. */
public final class RecordedExchange implements Exchange {
    public final CountDownLatch done = new CountDownLatch(1);
    public final AtomicInteger sentCalls = new AtomicInteger();
    public final AtomicInteger completedCalls = new AtomicInteger();
    public volatile long sentNanos = -1;
    public volatile long endNanos = -1;
    public volatile int status = -1;
    public volatile Outcome outcome;
    public volatile String detail;
    public volatile String thread;
    public volatile boolean completedBeforeSent;

    @Override
    public void sent(long actualSendNanos) {
        sentCalls.incrementAndGet();
        sentNanos = actualSendNanos;
        completedBeforeSent = completedCalls.get() > 0;
    }

    @Override
    public void completed(long endNanos, int status, Outcome outcome, String detail) {
        completedCalls.incrementAndGet();
        this.endNanos = endNanos;
        this.status = status;
        this.outcome = outcome;
        this.detail = detail;
        this.thread = Thread.currentThread().getName();
        done.countDown();
    }

    /** Waits (at most 20 s) for the completion. */
    public RecordedExchange await() throws InterruptedException {
        assertThat(done.await(20, TimeUnit.SECONDS)).as("completed within 20 s").isTrue();
        return this;
    }
}
