package io.loadsmith.tester.session;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.observe.PausePage;
import io.loadsmith.stall.observe.PauseWindow;
import io.loadsmith.tester.align.TesterPauseMeetings;
import io.loadsmith.tester.engine.RunListener;
import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.result.RunResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * A real run observing the tester's own pauses (docs/pauses.md, "The tester's own pauses"), from two
 * sources: the safepoints of this JVM, through a {@link PauseObserver#safepointsOnly} started before the
 * warm-up, and the send loop's own late sends ({@link LoopWindows}), reported by the engine at no cost but a
 * comparison per timed send ({@link #around} is the run's listener). The observer reads
 * {@code System.nanoTime()}, the clock of the real schedulers, so its windows need no offset. Not for a
 * virtual-clock simulation. Close it after {@link #attach}, also on failure.
 */
final class TesterPauses implements AutoCloseable {

    /** How long {@link #attach} waits, at most, for JFR to deliver past the run's end (it is up to ~2 s late). */
    static final long DELIVERY_WAIT_NANOS = 3_000_000_000L;
    private static final long POLL_NANOS = 10_000_000L;
    private static final String LOOP = "loop";

    private final PauseObserver observer;
    private final LoopWindows loop = new LoopWindows();

    private TesterPauses(PauseObserver observer) {
        this.observer = observer;
    }

    /**
     * Starts observing this JVM's safepoints (and, through {@link #around}, the run's late sends); returns
     * once the JFR stream runs. The first start in a JVM costs seconds of CPU on a busy box (later ones tens
     * of ms): it is not left to overlap the run, whose sends it would delay.
     */
    static TesterPauses start() {
        return new TesterPauses(PauseObserver.safepointsOnly(Clock.system()));
    }

    /** The run's listener: {@code inner} with the late sends reported here. */
    RunListener around(RunListener inner) {
        return loop.around(inner);
    }

    /**
     * The run with {@code tester_pauses} (every window overlapping {@code [start_ns, end_ns]}, in start
     * order), {@code requests_met_tester_pause} counted from its {@code requests.bin}, and the warnings: the
     * pauses are a material share of the corrected tail ({@link TesterPauseMeetings#material()}), or JFR had
     * not delivered past the run's end {@link #DELIVERY_WAIT_NANOS} after it. It first asks the observer for
     * a clock sample at once ({@link PauseObserver#requestSync}): its thread takes them once a second, and the
     * run's end is finalised only once one after it has been delivered.
     */
    RunResult attach(RunResult result, Path runDir) throws IOException {
        List<String> warnings = new ArrayList<>();
        observer.requestSync(); // a clock sample past the run's end now, not at the next second
        if (!awaitDelivery(observer, result.endNs())) {
            warnings.add("JFR had not delivered the tester's safepoints up to the run's end 3 s after it:"
                    + " tester_pauses may miss the last ones");
        }
        List<RunResult.TesterPause> pauses = new ArrayList<>();
        for (PauseWindow w : safepoints(observer)) {
            if (overlaps(w.startNanos(), w.endNanos(), result)) {
                pauses.add(new RunResult.TesterPause(w.source().wireName(), w.label(), w.startNanos(), w.endNanos()));
            }
        }
        for (TesterPauseMeetings.Span s : loop.windows()) {
            if (overlaps(s.startNanos(), s.endNanos(), result)) {
                pauses.add(new RunResult.TesterPause(LOOP, LOOP, s.startNanos(), s.endNanos()));
            }
        }
        pauses.sort(Comparator.comparingLong(RunResult.TesterPause::startNs));
        Path log = runDir.resolve(RequestLog.FILE_NAME);
        if (!Files.exists(log)) {
            return result.withTesterPauses(pauses, 0).withWarnings(warnings);
        }
        double p99Ms = result.latencyMs().corrected().p99();
        TesterPauseMeetings meetings = TesterPauseMeetings.count(log,
                pauses.stream().map(p -> new TesterPauseMeetings.Span(p.startNs(), p.endNs())).toList(),
                TesterPauseMeetings.DEFAULT_MIN_PAUSE_NANOS, Math.round(p99Ms * 1e6));
        String warning = materialWarning(meetings, p99Ms);
        if (warning != null) {
            warnings.add(warning);
        }
        return result.withTesterPauses(pauses, meetings.met()).withWarnings(warnings);
    }

    /** The warning for a material share, or null. */
    static String materialWarning(TesterPauseMeetings meetings, double p99Ms) {
        if (!meetings.material()) {
            return null;
        }
        return meetings.aboveHarmed() + " of the " + meetings.above() + " requests above the corrected p99 ("
                + String.format(Locale.ROOT, "%.3f", p99Ms) + " ms) spent at least 10 % of their corrected latency"
                + " inside pauses of the tester itself (tester_pauses): the tester's own pauses are a material share"
                + " of the tail";
    }

    private static boolean overlaps(long startNanos, long endNanos, RunResult run) {
        return endNanos - run.startNs() >= 0 && run.endNs() - startNanos >= 0;
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

    private static List<PauseWindow> safepoints(PauseObserver observer) {
        List<PauseWindow> found = new ArrayList<>();
        long since = 0;
        PausePage page;
        do {
            page = observer.pauses(since);
            found.addAll(page.pauses());
            since = page.nextIndex();
        } while (page.more());
        return found;
    }

    /** Stops the observer. Idempotent. */
    @Override
    public void close() {
        observer.close();
    }
}
