package io.loadsmith.tester.session;

import io.loadsmith.tester.align.TesterPauseMeetings;
import io.loadsmith.tester.engine.RunListener;

import java.util.ArrayList;
import java.util.List;

/**
 * The send loop's own pauses, from the late sends the engine reports ({@link RunListener#sendLate}): each is
 * a window from when the send was due to when the loop came to it; windows that overlap or touch are one
 * (the sends due during one pause of the loop are all released when it runs again). Thread-safe: the lanes
 * of a run report from their own threads. At most {@value #MAX_WINDOWS} windows are kept (a loop late all
 * the time says so through the "sent late" warning anyway).
 */
final class LoopWindows {

    static final int MAX_WINDOWS = 100_000;

    private final List<TesterPauseMeetings.Span> windows = new ArrayList<>(); // guarded by this

    /** A send due at {@code intendedNanos} was released at {@code releaseNanos}. */
    synchronized void sendLate(long intendedNanos, long releaseNanos) {
        TesterPauseMeetings.Span last = windows.isEmpty() ? null : windows.get(windows.size() - 1);
        if (last != null && intendedNanos <= last.endNanos() && releaseNanos >= last.startNanos()) {
            windows.set(windows.size() - 1, new TesterPauseMeetings.Span(Math.min(last.startNanos(), intendedNanos),
                    Math.max(last.endNanos(), releaseNanos)));
        } else if (windows.size() < MAX_WINDOWS) {
            windows.add(new TesterPauseMeetings.Span(intendedNanos, releaseNanos));
        }
    }

    /** The windows so far: disjoint, in start order. */
    synchronized List<TesterPauseMeetings.Span> windows() {
        return TesterPauseMeetings.union(windows);
    }

    /** {@code inner} with the late sends reported here. */
    RunListener around(RunListener inner) {
        return new RunListener() {
            @Override
            public void countedStart(long startNanos) {
                inner.countedStart(startNanos);
            }

            @Override
            public void sendLate(long intendedNanos, long releaseNanos) {
                LoopWindows.this.sendLate(intendedNanos, releaseNanos);
            }
        };
    }
}
