package io.loadsmith.tester.client.jetty;

import io.loadsmith.tester.client.Transports;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.OpenTransport;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.TransportOptions;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The transport alone, without the engine: a closed loop of N connections, each sending its next request
 * from the previous one's completion callback, for D seconds. Prints requests a second and process CPU
 * per request (docs/benchmarks.md), and for Netty the bytes its event loop allocated per request.
 * {@code java -cp ... TransportBench URL CONNECTIONS SECONDS [netty|jetty]} (default netty).
 */
public final class TransportBench {

    private TransportBench() {
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[0]);
        int connections = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        TransportOptions.Kind kind = args.length > 3
                ? TransportOptions.Kind.valueOf(args[3].toUpperCase(Locale.ROOT)) : TransportOptions.Kind.NETTY;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (OpenTransport open = Transports.open(TransportOptions.connections(connections).withKind(kind))) {
            var http = open.transport();
            AtomicLong loopThread = new AtomicLong();
            CountDownLatch found = new CountDownLatch(1);
            open.scheduler().at(open.scheduler().nanoTime(), () -> {
                loopThread.set(Thread.currentThread().getId());
                found.countDown();
            });
            found.await();
            for (int round = 0; round < 2; round++) { // round 0 warms up (JIT), round 1 is measured
                LongAdder done = new LongAdder();
                LongAdder errors = new LongAdder();
                AtomicBoolean running = new AtomicBoolean(true);
                RequestSpec spec = RequestSpec.get(uri, 0, 0);
                long bytes0 = threads.getThreadAllocatedBytes(loopThread.get());
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int c = 0; c < connections; c++) {
                    RequestSpec own = spec.onConnection(c);
                    http.send(own, new Exchange() {
                        @Override
                        public void sent(long actualSendNanos) {
                        }

                        @Override
                        public void completed(long endNanos, int status, Outcome outcome, String detail) {
                            done.increment();
                            if (outcome != Outcome.OK) {
                                errors.increment();
                            }
                            if (running.get()) {
                                http.send(own, this);
                            }
                        }
                    });
                }
                Thread.sleep(round == 0 ? 3_000 : seconds * 1_000L);
                running.set(false);
                long t1 = System.nanoTime();
                long cpu1 = os.getProcessCpuTime();
                long bytes1 = threads.getThreadAllocatedBytes(loopThread.get());
                Thread.sleep(500);
                long n = done.sum();
                if (round == 1) {
                    System.out.printf(Locale.ROOT, "%s transport alone c=%d: %d requests, %.0f/s, %.1f us CPU/request, "
                            + "%d errors%s%n", kind.wireName(), connections, n, n / ((t1 - t0) / 1e9),
                            (cpu1 - cpu0) / 1e3 / n, errors.sum(), kind == TransportOptions.Kind.NETTY
                                    ? String.format(Locale.ROOT, ", %.0f bytes allocated on the loop per request",
                                            (bytes1 - bytes0) / (double) n) : "");
                }
            }
        }
    }
}
