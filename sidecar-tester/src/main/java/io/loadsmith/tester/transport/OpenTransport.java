package io.loadsmith.tester.transport;

import io.loadsmith.tester.engine.Scheduler;

/**
 * A transport and the scheduler it belongs with, opened together by {@link Transports#open} and closed
 * together: the transport first (what is in flight is cancelled), then the scheduler's thread. Pass
 * {@link #scheduler()} and {@link #transport()} to {@code LoadTest.run}; read {@link #stats()} from any thread.
 */
public final class OpenTransport implements AutoCloseable {

    private final Scheduler scheduler;
    private final Transport transport;
    private final TransportStats stats;
    private final AutoCloseable schedulerCloser;

    /** {@code schedulerCloser} stops the scheduler's thread; it is called after the transport is closed. */
    public OpenTransport(Scheduler scheduler, Transport transport, TransportStats stats, AutoCloseable schedulerCloser) {
        this.scheduler = scheduler;
        this.transport = transport;
        this.stats = stats;
        this.schedulerCloser = schedulerCloser;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    public Transport transport() {
        return transport;
    }

    public TransportStats stats() {
        return stats;
    }

    @Override
    public void close() throws Exception {
        try {
            transport.close();
        } finally {
            schedulerCloser.close();
        }
    }
}
