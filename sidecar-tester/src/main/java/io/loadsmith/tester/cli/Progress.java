package io.loadsmith.tester.cli;

import io.loadsmith.stall.clock.Clock;
import java.io.PrintWriter;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The live progress of a real run, on its own daemon thread: on a terminal one line rewritten in place
 * every 0.5 s, otherwise a plain line every 5 s (for CI logs).
 */
final class Progress implements AutoCloseable {

    private final CountingTransport counts;
    private final PrintWriter out;
    private final boolean terminal;
    private final Clock clock = Clock.system();
    private final long startNanos = clock.nanoTime();
    private final Thread thread;
    private volatile boolean running = true;

    Progress(CountingTransport counts, PrintWriter out, boolean terminal) {
        this.counts = counts;
        this.out = out;
        this.terminal = terminal;
        this.thread = new Thread(this::loop, "loadsmith-progress");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        long periodMillis = terminal ? 500 : 5_000;
        Histogram interval = null;
        while (running) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            interval = counts.service.getIntervalHistogram(interval);
            double elapsedSeconds = (clock.nanoTime() - startNanos) / 1e9;
            long sent = counts.sent.sum();
            String line = String.format(Locale.ROOT,
                    "%6.1fs  sent %d  %.0f/s  in flight %d  p99 service (last %.1fs) %.2f ms  errors %d",
                    elapsedSeconds, sent, sent / Math.max(elapsedSeconds, 1e-9), counts.inFlight(),
                    periodMillis / 1000.0, interval.getTotalCount() == 0 ? 0 : interval.getValueAtPercentile(99) / 1000.0,
                    counts.errors.sum());
            if (terminal) {
                out.print("\r" + line + "   ");
            } else {
                out.println(line);
            }
            out.flush();
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        if (terminal) {
            out.println();
            out.flush();
        }
    }
}
