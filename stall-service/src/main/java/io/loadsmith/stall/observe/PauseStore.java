package io.loadsmith.stall.observe;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The most recent windows, indexed in the order they are added; older ones are dropped and counted.
 * Thread-safe.
 */
final class PauseStore {

    private final int maxRecords;
    private final int pageSize;
    private final ArrayDeque<PauseWindow> windows = new ArrayDeque<>();
    private long nextIndex;
    private long dropped;
    private long safepoints;
    private long safepointNanos;
    private long sleeper;
    private long sleeperNanos;
    private long hostSleeper;

    PauseStore(int maxRecords, int pageSize) {
        this.maxRecords = maxRecords;
        this.pageSize = pageSize;
    }

    synchronized PauseWindow add(PauseWindow window) {
        PauseWindow indexed = window.withIndex(nextIndex++);
        windows.addLast(indexed);
        if (indexed.source() == PauseSource.SAFEPOINT) {
            safepoints++;
            safepointNanos += indexed.durationNanos();
        } else {
            sleeper++;
            sleeperNanos += indexed.durationNanos();
            if (PauseWindow.HOST.equals(indexed.label())) {
                hostSleeper++;
            }
        }
        if (windows.size() > maxRecords) {
            windows.removeFirst();
            dropped++;
        }
        return indexed;
    }

    synchronized int kept() {
        return windows.size();
    }

    int maxRecords() {
        return maxRecords;
    }

    synchronized PausePage page(long sinceIndex) {
        List<PauseWindow> page = new ArrayList<>();
        boolean more = false;
        for (PauseWindow window : windows) {
            if (window.index() >= sinceIndex) {
                if (page.size() == pageSize) {
                    more = true;
                    break;
                }
                page.add(window);
            }
        }
        long next = page.isEmpty() ? sinceIndex : page.get(page.size() - 1).index() + 1;
        return new PausePage(page, next, more, dropped);
    }

    synchronized PauseTotals totals() {
        return new PauseTotals(safepoints, safepointNanos, sleeper, sleeperNanos, hostSleeper, dropped);
    }
}
