package io.loadsmith.stall.observe;

import io.loadsmith.stall.clock.Clock;

import java.util.concurrent.locks.LockSupport;

/**
 * One observing period of a {@link PauseObserver}, from a start (or a {@link PauseObserver#runArmed}) to
 * its end: the sleeper's or the sync thread, the JFR stream, and the labelling of what they see
 * ({@link SleeperAttribution}). The fields without a note, and the attribution, are guarded by the
 * observer's monitor.
 */
final class ObservingPeriod {

    private static final long FINAL_WAIT_NANOS = PauseObserver.FINAL_WAIT_MILLIS * 1_000_000L;

    final Thread thread;
    /** The end of an observer of {@link PauseObserver#whenArmed}; written under the observer's monitor. */
    volatile long untilNanos;
    volatile boolean stopped;
    volatile boolean syncRequested;
    /** Whether this period has committed its first sync events (its own thread only). */
    private boolean syncedOnce;
    volatile SafepointStream jfr;

    private final PauseObserver observer;
    private final ObserverSettings settings;
    private final Clock clock;
    private final SleeperAttribution attribution;

    ObservingPeriod(PauseObserver observer, ObserverSettings settings, PauseStore store, long untilNanos) {
        this.observer = observer;
        this.settings = settings;
        this.clock = settings.clock();
        this.attribution = new SleeperAttribution(store);
        this.untilNanos = untilNanos;
        this.thread = new Thread(this::run, settings.withSleeper() ? PauseObserver.SLEEPER_THREAD : PauseObserver.SYNC_THREAD);
        thread.setDaemon(true);
    }

    /** Starts this period's JFR stream on the caller's thread; a failure leaves the period without it. */
    void startJfr() {
        try {
            jfr = SafepointStream.start(clock, new Sink(), settings.jfrMemory());
            observer.jfrStatus("on");
        } catch (Throwable t) {
            ObserverLog.once("jfr-start", "pause observer: JFR is not available, safepoints are not observed (" + t + ")", null);
            observer.jfrStatus("off: " + t);
        }
    }

    /** Starts and at once closes a JFR stream whose events are dropped: a JVM's first JFR start, done ahead. */
    void startAndCloseJfr() {
        stopped = true; // what this stream sees is not kept: it only starts JFR
        SafepointStream.start(clock, new Sink(), settings.jfrMemory()).close();
    }

    private void run() {
        try {
            if (settings.withJfr() && jfr == null && settings.whenArmed()) {
                startJfr();
            }
            if (settings.withSleeper()) {
                sleep();
            } else {
                syncOnly();
            }
        } catch (Throwable t) {
            String part = settings.withSleeper() ? "sleeper" : "sync";
            ObserverLog.once(part, "pause observer: the " + part + " thread stopped", t);
        } finally {
            end();
        }
    }

    /** Stops this period from outside (a close): the thread ends at its next wake-up. */
    void stop() {
        stopped = true;
        thread.interrupt();
        closeJfr();
    }

    private void closeJfr() {
        SafepointStream stream;
        synchronized (observer) {
            stream = jfr;
            jfr = null;
        }
        if (stream != null) {
            try {
                stream.close();
            } catch (RuntimeException e) {
                ObserverLog.once("jfr-close", "pause observer: closing the JFR stream failed", e);
            }
        }
    }

    /** On this period's thread, last: every sleeper window still pending is stored, the stream closed. */
    private void end() {
        synchronized (observer) {
            stopped = true;
            observer.periodOver(this);
            attribution.finish(clock.nanoTime(), true, jfr != null);
        }
        closeJfr();
        String status = observer.jfrStatus();
        if (settings.whenArmed() && ("on".equals(status) || PauseObserver.STARTING.equals(status))) {
            observer.idleUnlessObserving();
        }
    }

    /**
     * True when this period, of an observer of {@link PauseObserver#whenArmed}, may end at {@code nowNanos}:
     * its end has passed and JFR has delivered up to it (or {@link PauseObserver#FINAL_WAIT_MILLIS} ms passed
     * since {@code endDueNanos}, or there is no JFR). A run armed meanwhile moves the end: then false.
     */
    private boolean mayEnd(long nowNanos, long endDueNanos) {
        synchronized (observer) {
            long until = untilNanos;
            if (nowNanos - until < 0) {
                return false;
            }
            if (finalisedUpTo(until) || nowNanos - endDueNanos - FINAL_WAIT_NANOS >= 0) {
                stopped = true;
                observer.periodOver(this);
                return true;
            }
            return false;
        }
    }

    /** The sleeper's loop (jHiccup's method), which also commits the sync events and ends a period of a run. */
    private void sleep() {
        long shortestNanos = Long.MAX_VALUE;
        long nextSyncNanos = clock.nanoTime();
        long endDueNanos = 0;
        boolean endDue = false;
        // from one wake-up to the next, not around the park alone: a pause that comes while the loop commits
        // its sync events or waits for the observer's monitor (right after a long window, say) delays the next
        // wake-up just the same, and would otherwise go unseen
        long t1 = clock.nanoTime();
        while (!stopped) {
            long t0 = t1;
            LockSupport.parkNanos(settings.sleepNanos());
            t1 = clock.nanoTime();
            long deltaNanos = t1 - t0;
            shortestNanos = Math.min(shortestNanos, deltaNanos);
            if (deltaNanos - shortestNanos > settings.sleeperThresholdNanos()) {
                sleeperWindow(new PauseWindow(0, PauseSource.SLEEPER, PauseWindow.UNATTRIBUTED,
                        t0 + shortestNanos, t1, null, null, 0));
            }
            boolean ending = settings.whenArmed() && t1 - untilNanos >= 0;
            if (ending && !endDue) {
                endDueNanos = t1;
                syncRequested = true; // a sample past the end, so that JFR's next flush finalises up to it
            }
            endDue = ending;
            if (t1 - nextSyncNanos >= 0 || syncRequested) {
                nextSyncNanos = t1 + settings.syncIntervalNanos();
                boolean asked = syncRequested;
                syncRequested = false;
                sync(asked);
                synchronized (observer) {
                    attribution.finish(clock.nanoTime(), false, jfr != null);
                }
            }
            if (ending && mayEnd(t1, endDueNanos)) {
                return;
            }
        }
    }

    private void syncOnly() {
        long nextSyncNanos = clock.nanoTime();
        while (!stopped) {
            long now = clock.nanoTime();
            if (now - nextSyncNanos >= 0 || syncRequested) {
                boolean asked = syncRequested;
                syncRequested = false;
                sync(asked);
                nextSyncNanos = clock.nanoTime() + settings.syncIntervalNanos();
            }
            // an unpark (requestSync) or a spurious return ends the park early; the loop looks again
            LockSupport.parkNanos(Math.max(1, nextSyncNanos - clock.nanoTime()));
        }
    }

    /** Commits the sync events; {@code asked}: someone waits on them, or they are this period's first. */
    private void sync(boolean asked) {
        SafepointStream stream = jfr;
        if (stream == null) {
            return;
        }
        try {
            stream.sync(asked || !syncedOnce);
            syncedOnce = true;
        } catch (RuntimeException e) {
            ObserverLog.once("jfr-sync", "pause observer: committing a JFR sync event failed", e);
        }
    }

    /** See {@link PauseObserver#finalisedUpTo}; guarded by the observer's monitor. */
    boolean finalisedUpTo(long nanos) {
        return jfr == null || attribution.finalisedUpTo(nanos);
    }

    private void sleeperWindow(PauseWindow window) {
        synchronized (observer) {
            attribution.sleeperWindow(window, jfr != null);
        }
    }

    /** What this period's JFR stream delivers, on the stream's thread. */
    private final class Sink implements SafepointStream.Sink {

        @Override
        public void safepoint(PauseWindow window) {
            synchronized (observer) {
                if (jfr == null && stopped) {
                    return; // a stream being closed: its period has stored what it waited for
                }
                attribution.safepoint(window);
            }
        }

        @Override
        public void delivered(long upToNanos, long openSince, boolean none) {
            synchronized (observer) {
                attribution.delivered(upToNanos, openSince, none);
                attribution.finish(clock.nanoTime(), false, jfr != null);
            }
        }

        @Override
        public void stopped(Throwable cause) {
            SafepointStream stream = jfr;
            if (cause != null && !stopped && stream != null) {
                synchronized (observer) {
                    jfr = null;
                    attribution.finish(clock.nanoTime(), true, false);
                }
                try {
                    stream.close();
                } catch (RuntimeException ignored) {
                    // it failed already: the log line below says why
                }
                observer.jfrStatus("off: the JFR stream stopped (" + cause + ")");
                ObserverLog.once("jfr-stopped", "pause observer: the JFR stream stopped, safepoints are no longer observed", cause);
            }
        }

        @Override
        public void failed(String what, Throwable cause) {
            ObserverLog.once("jfr-" + what, "pause observer: handling " + what + " failed (logged once)", cause);
        }
    }
}
