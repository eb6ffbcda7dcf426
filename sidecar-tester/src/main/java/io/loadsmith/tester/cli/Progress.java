package io.loadsmith.tester.cli;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.transport.TransportStats;
import java.io.PrintWriter;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The live progress of a real run, on its own daemon thread: on a terminal one line rewritten in place
 * every second, otherwise a plain line every 5 s (for CI logs): elapsed, sent, achieved rate, in flight,
 * corrected p99 so far (end − intended send, from the engine's {@link LiveStats}) and errors. Sent and in
 * flight are the counts the transport keeps anyway ({@link TransportStats}): the progress line costs the
 * requests nothing.
 */
final class Progress implements AutoCloseable {

    private final TransportStats counts;
    private final LiveStats live;
    private final PrintWriter out;
    private final boolean terminal;
    private final Clock clock = Clock.system();
    private final long startNanos = clock.nanoTime();
    private final Thread thread;
    private volatile boolean running = true;

    Progress(TransportStats counts, LiveStats live, PrintWriter out, boolean terminal) {
        this.counts = counts;
        this.live = live;
        this.out = out;
        this.terminal = terminal;
        this.thread = new Thread(this::loop, "loadsmith-progress");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        long periodMillis = terminal ? 1_000 : 5_000;
        while (running) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            double elapsedSeconds = (clock.nanoTime() - startNanos) / 1e9;
            String line = live.read(LiveStats.LatencyKind.CORRECTED, corrected -> line(elapsedSeconds, counts.sent(),
                    counts.inFlight(), corrected, live.errors()));
            if (terminal) {
                out.print("\r" + line + "   ");
            } else {
                out.println(line);
            }
            out.flush();
        }
    }

    /** One progress line; corrected: corrected latency so far, µs. */
    static String line(double elapsedSeconds, long sent, long inFlight, Histogram corrected, long errors) {
        return String.format(Locale.ROOT,
                "%6.1fs  sent %d  %.0f/s  in flight %d  corrected p99 so far %.2f ms  errors %d",
                elapsedSeconds, sent, sent / Math.max(elapsedSeconds, 1e-9), inFlight,
                corrected.getTotalCount() == 0 ? 0 : corrected.getValueAtPercentile(99) / 1000.0, errors);
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
