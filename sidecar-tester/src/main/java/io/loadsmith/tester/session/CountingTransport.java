package io.loadsmith.tester.session;

import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;
import java.util.concurrent.atomic.LongAdder;

/**
 * Wraps a transport to feed the live progress line: requests sent, ended, failed and in flight. Latency
 * (corrected, which needs intended times the transport cannot see) comes from the engine's
 * {@link io.loadsmith.tester.record.LiveStats}.
 */
public final class CountingTransport implements Transport {

    private final Transport delegate;
    final LongAdder started = new LongAdder();
    public final LongAdder sent = new LongAdder();
    final LongAdder ended = new LongAdder();
    final LongAdder errors = new LongAdder();

    CountingTransport(Transport delegate) {
        this.delegate = delegate;
    }

    @Override
    public void send(RequestSpec request, Exchange exchange) {
        started.increment();
        delegate.send(request, new Exchange() {
            @Override
            public void sent(long actualSendNanos) {
                sent.increment();
                exchange.sent(actualSendNanos);
            }

            @Override
            public void completed(long endNanos, int status, Outcome outcome, String detail) {
                ended.increment();
                if (outcome != Outcome.OK && outcome != Outcome.CANCELLED) {
                    errors.increment();
                }
                exchange.completed(endNanos, status, outcome, detail);
            }
        });
    }

    public long inFlight() {
        return started.sum() - ended.sum();
    }

    @Override
    public void cancelAll() {
        delegate.cancelAll();
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }
}
