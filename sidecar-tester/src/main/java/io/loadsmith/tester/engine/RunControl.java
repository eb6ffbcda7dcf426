package io.loadsmith.tester.engine;

import io.loadsmith.tester.record.LiveStats;
import io.loadsmith.tester.scheduler.Scheduler;
import io.loadsmith.tester.scheduler.VirtualScheduler;

/**
 * A stop handle for one run of {@link LoadRun}. {@link #stop()} may be called from any thread, once or
 * many times, before or during the run: the request is handed to the scheduler's thread, where the run
 * stops creating arrivals and iterations (anything intended at or after that moment is never scheduled),
 * gives the requests in flight the tester's grace, then cancels what is left and counts it as dropped.
 * The run then ends as usual, its result marked {@code interrupted} with a warning. A stop that comes
 * after the run's duration has already passed only shortens the grace.
 *
 * <p>Called on the scheduler's own thread (always so for a {@link VirtualScheduler}, which is
 * single-threaded: call it from one of its tasks, e.g. {@code scheduler.at(start + 5 s, control::stop)}),
 * the stop takes effect at once, so a request intended at exactly the stop moment is not sent.
 */
public final class RunControl {

    private final LiveStats live;
    private Scheduler scheduler;
    private Runnable onStop;
    private boolean stopRequested;
    private volatile boolean finished;

    /** A stop handle; the run keeps no {@link #live()} statistics. */
    public RunControl() {
        this(null);
    }

    private RunControl(LiveStats live) {
        this.live = live;
    }

    /** A stop handle whose run also feeds {@link #live()} (a few nanoseconds per request, no locks). */
    public static RunControl withLiveStats() {
        return new RunControl(new LiveStats());
    }

    /** What the counted run measured so far (for a progress line), or null if not asked for. */
    public LiveStats live() {
        return live;
    }

    /** Asks the run to stop early; returns at once (the run ends on its own threads). */
    public void stop() {
        Scheduler target;
        Runnable task;
        synchronized (this) {
            if (stopRequested) {
                return;
            }
            stopRequested = true;
            target = scheduler;
            task = onStop;
        }
        if (target != null && !finished) {
            hand(target, task);
        }
    }

    /** Runs task on the scheduler's thread: at once when already there, else as the next task. */
    private static void hand(Scheduler target, Runnable task) {
        if (target.inThread()) {
            task.run();
        } else {
            target.at(target.nanoTime(), task);
        }
    }

    /** Whether {@link #stop()} was called. */
    public synchronized boolean stopRequested() {
        return stopRequested;
    }

    /** Whether the run this handle belongs to has ended (with a result or a failure). */
    public boolean finished() {
        return finished;
    }

    synchronized void attach(Scheduler target, Runnable task) {
        if (scheduler != null) {
            throw new IllegalStateException("a RunControl belongs to one run; this one was already used");
        }
        scheduler = target;
        onStop = task;
        if (stopRequested) {
            target.at(target.nanoTime(), task); // the run has not begun: it stops as soon as it does
        }
    }

    void markFinished() {
        finished = true;
    }
}
