package io.loadsmith.tester.session;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.observe.PausePage;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.observe.PauseWindow;
import io.loadsmith.tester.align.PauseMeetings;
import io.loadsmith.tester.align.StallWindow;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.RunResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The tester observing its own pauses during a real run: a {@link PauseObserver} on {@code System.nanoTime()},
 * the clock the real schedulers read, so its windows need no offset. Not for a virtual-clock simulation.
 */
final class SelfPauses {

    /** How long to wait after the run for the observer to have delivered past its end (JFR is ~2 s late). */
    static final long DELIVERY_WAIT_NANOS = 3_000_000_000L;
    private static final long POLL_NANOS = 10_000_000L;

    private SelfPauses() {
    }

    /** Starts observing this JVM; close it after {@link #attach}. */
    static PauseObserver start() {
        return PauseObserver.start(Clock.system());
    }

    /**
     * The run with {@code tester_pauses} (windows overlapping {@code [start_ns, end_ns]}),
     * {@code requests_met_tester_pause} counted from its {@code requests.bin}, and the warnings: delivery cut
     * short, or more than 10 % of the requests above the corrected p99 met a tester pause. Waits at most
     * {@link #DELIVERY_WAIT_NANOS} for the observer.
     */
    static RunResult attach(PauseObserver observer, RunResult result, Path runDir) throws IOException {
        List<String> warnings = new ArrayList<>();
        if (!awaitDelivery(observer, result.endNs())) {
            warnings.add("the tester's pause observer had not delivered past the run's end after "
                    + TimeUnit.NANOSECONDS.toSeconds(DELIVERY_WAIT_NANOS) + " s: tester_pauses may miss its last pauses");
        }
        List<RunResult.TesterPause> pauses = new ArrayList<>();
        List<StallWindow> windows = new ArrayList<>();
        for (PauseWindow w : during(observer, result.startNs(), result.endNs())) {
            pauses.add(new RunResult.TesterPause(w.startNanos(), w.endNanos(), w.source().wireName(), w.label()));
            windows.add(new StallWindow(windows.size(), w.startNanos(), w.endNanos(), 0));
        }
        Path log = runDir.resolve(RequestLog.FILE_NAME);
        if (!Files.exists(log)) {
            return result.withTesterPauses(pauses, 0).withWarnings(warnings);
        }
        double p99Ms = result.latencyMs().corrected().p99();
        PauseMeetings meetings = PauseMeetings.count(log, windows, Math.round(result.durationMs() * 1e6),
                Math.round(p99Ms * 1e6));
        if (meetings.material()) {
            warnings.add(meetings.aboveMet() + " of the " + meetings.above() + " requests above the corrected p99 ("
                    + p99Ms + " ms) met a pause of the tester itself (tester_pauses): the tester's own pauses are a"
                    + " material share of the tail");
        }
        return result.withTesterPauses(pauses, meetings.met()).withWarnings(warnings);
    }

    private static boolean awaitDelivery(PauseObserver observer, long endNanos) {
        long deadline = System.nanoTime() + DELIVERY_WAIT_NANOS;
        while (!observer.finalisedUpTo(endNanos)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return true;
    }

    /** The observer's windows that overlap {@code [fromNanos, toNanos]}, in start order. */
    static List<PauseWindow> during(PauseObserver observer, long fromNanos, long toNanos) {
        List<PauseWindow> found = new ArrayList<>();
        long since = 0;
        PausePage page;
        do {
            page = observer.pauses(since);
            for (PauseWindow w : page.pauses()) {
                if (w.endNanos() - fromNanos >= 0 && toNanos - w.startNanos() >= 0) {
                    found.add(w);
                }
            }
            since = page.nextIndex();
        } while (page.more());
        found.sort((a, b) -> Long.compare(a.startNanos(), b.startNanos()));
        return found;
    }
}
