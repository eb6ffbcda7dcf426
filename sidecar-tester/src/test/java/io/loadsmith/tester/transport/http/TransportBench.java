package io.loadsmith.tester.transport.http;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.transport.Exchange;
import io.loadsmith.tester.transport.Outcome;
import io.loadsmith.tester.transport.RequestSpec;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The transport alone, without the engine: a closed loop of N connections, each sending its next request
 * from the previous one's completion callback, for D seconds. Prints requests a second and process CPU
 * per request (docs/benchmarks.md). {@code java -cp ... TransportBench URL CONNECTIONS SECONDS}.
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
        try (JettyTransport http = JettyTransport.start(Clock.system(),
                new JettyTransport.Options(connections, JettyTransport.Options.DEFAULT_TIMEOUT_NANOS,
                        JettyTransport.Options.DEFAULT_CONNECT_TIMEOUT_NANOS, 1 << 20,
                        args.length > 3 ? Integer.parseInt(args[3]) : 8))) {
            for (int round = 0; round < 2; round++) { // round 0 warms up (JIT), round 1 is measured
                LongAdder done = new LongAdder();
                LongAdder errors = new LongAdder();
                AtomicBoolean running = new AtomicBoolean(true);
                RequestSpec spec = RequestSpec.get(uri, 0, 0);
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int c = 0; c < connections; c++) {
                    http.send(spec, new Exchange() {
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
                                http.send(spec, this);
                            }
                        }
                    });
                }
                Thread.sleep(round == 0 ? 3_000 : seconds * 1_000L);
                running.set(false);
                long t1 = System.nanoTime();
                long cpu1 = os.getProcessCpuTime();
                Thread.sleep(500);
                long n = done.sum();
                if (round == 1) {
                    System.out.printf("transport alone c=%d: %d requests, %.0f/s, %.1f us CPU/request, %d errors%n",
                            connections, n, n / ((t1 - t0) / 1e9), (cpu1 - cpu0) / 1e3 / n, errors.sum());
                }
            }
        }
    }
}
