package io.loadsmith.tester.session;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.tester.engine.RunControl;
import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.transport.Outcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Notices a target that stopped answering during a real run ({@code target.give_up_after}): once a second,
 * on its own thread, it reads the counts the run's {@link LiveStats} already keeps (no work is added to the
 * sending path). A span in which requests ended refused or reset and none ended any other way (no answer
 * at all) marks the target as gone from the check before the first of them; another answer or error ends
 * the span. A span as long as {@code giveUpAfterNanos} stops the run through its {@link RunControl}; a span
 * still open when the run ends means the target stopped answering (exit 3). Times have the check's
 * one-second resolution.
 */
final class TargetWatch implements AutoCloseable {

    static final long CHECK_NANOS = 1_000_000_000L;

    private final LiveStats live;
    private final RunControl control;
    private final long giveUpAfterNanos;
    private final Clock clock;
    private final long startNanos;
    private final ScheduledExecutorService thread;
    private long lastCheckNanos;
    private long lastRefusedOrReset;
    private long lastOthers;
    private long goneSinceNanos = -1;
    private boolean gaveUp;

    /** A watch checked by hand on {@code clock} (tests); {@link #start} checks on its own thread. */
    TargetWatch(LiveStats live, RunControl control, long giveUpAfterNanos, Clock clock) {
        this(live, control, giveUpAfterNanos, clock, null);
    }

    private TargetWatch(LiveStats live, RunControl control, long giveUpAfterNanos, Clock clock,
                        ScheduledExecutorService thread) {
        this.live = live;
        this.control = control;
        this.giveUpAfterNanos = giveUpAfterNanos;
        this.clock = clock;
        this.startNanos = clock.nanoTime();
        this.lastCheckNanos = startNanos;
        this.thread = thread;
    }

    /** Starts checking {@code live} once a second from now, on {@code clock}; {@link #close()} stops it. */
    static TargetWatch start(LiveStats live, RunControl control, long giveUpAfterNanos, Clock clock) {
        TargetWatch watch = new TargetWatch(live, control, giveUpAfterNanos, clock,
                Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "loadsmith-target-watch");
                    t.setDaemon(true);
                    return t;
                }));
        watch.thread.scheduleAtFixedRate(watch::check, CHECK_NANOS, CHECK_NANOS, TimeUnit.NANOSECONDS);
        return watch;
    }

    /** One check: called once a second (by the watch's thread, or a test). */
    synchronized void check() {
        long now = clock.nanoTime();
        long refusedOrReset = live.errors(Outcome.REFUSED) + live.errors(Outcome.RESET);
        long others = live.ended() - refusedOrReset;
        if (others > lastOthers) {
            goneSinceNanos = -1;
        } else if (refusedOrReset > lastRefusedOrReset && goneSinceNanos < 0) {
            goneSinceNanos = lastCheckNanos;
        }
        if (goneSinceNanos >= 0 && !gaveUp && now - goneSinceNanos >= giveUpAfterNanos) {
            gaveUp = true;
            control.stop();
        }
        lastCheckNanos = now;
        lastRefusedOrReset = refusedOrReset;
        lastOthers = others;
    }

    /**
     * After the run: a last check, then what became of the target; null when it was answering at the end.
     */
    synchronized ResultsFile.TargetLost lost() {
        check();
        if (goneSinceNanos < 0) {
            return null;
        }
        Map<String, Long> errors = new LinkedHashMap<>();
        live.errorsByOutcome().forEach((outcome, count) -> errors.put(outcome.name().toLowerCase(), count));
        return new ResultsFile.TargetLost((goneSinceNanos - startNanos) / 1e9, gaveUp, giveUpAfterNanos / 1e9,
                errors);
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
