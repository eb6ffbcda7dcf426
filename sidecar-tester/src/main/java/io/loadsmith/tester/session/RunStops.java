package io.loadsmith.tester.session;

import io.loadsmith.tester.engine.RunControl;

/**
 * The stop handle of a command that runs several testers one after another ({@code demo},
 * {@code experiment}): {@link #stop()} (Ctrl-C, any thread) stops the run in progress through its
 * {@link RunControl} and keeps the next ones from starting.
 */
public final class RunStops {

    private boolean stopped;
    private RunControl current;

    /** The stop handle of the next run; one already stopped when {@link #stop()} was called. */
    synchronized RunControl next() {
        current = new RunControl();
        if (stopped) {
            current.stop();
        }
        return current;
    }

    /** Stops the run in progress and every later one; returns at once. */
    public void stop() {
        RunControl running;
        synchronized (this) {
            stopped = true;
            running = current;
        }
        if (running != null) {
            running.stop();
        }
    }

    /** Whether {@link #stop()} was called. */
    public synchronized boolean stopped() {
        return stopped;
    }
}
