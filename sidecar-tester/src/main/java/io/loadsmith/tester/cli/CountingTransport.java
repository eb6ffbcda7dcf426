package io.loadsmith.tester.cli;

import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.Transport;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Wraps a transport to feed the live progress line: requests sent, ended, failed, in flight, and a
 * {@link Recorder} of service latency (end − actual send). The transport cannot see intended times, so
 * the live line shows service latency; corrected latency is in the results once the run ends.
 */
final class CountingTransport implements Transport {

    private final Transport delegate;
    final LongAdder started = new LongAdder();
    final LongAdder sent = new LongAdder();
    final LongAdder ended = new LongAdder();
    final LongAdder errors = new LongAdder();
    final Recorder service = new Recorder(3);

    CountingTransport(Transport delegate) {
        this.delegate = delegate;
    }

    @Override
    public void send(RequestSpec request, Exchange exchange) {
        started.increment();
        delegate.send(request, new Exchange() {
            long sentNanos = -1;

            @Override
            public void sent(long actualSendNanos) {
                sentNanos = actualSendNanos;
                sent.increment();
                exchange.sent(actualSendNanos);
            }

            @Override
            public void completed(long endNanos, int status, Outcome outcome, String detail) {
                ended.increment();
                if (outcome != Outcome.OK && outcome != Outcome.CANCELLED) {
                    errors.increment();
                }
                if (sentNanos >= 0 && endNanos >= sentNanos) {
                    service.recordValue(Math.max(1, (endNanos - sentNanos) / 1000));
                }
                exchange.completed(endNanos, status, outcome, detail);
            }
        });
    }

    long inFlight() {
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
