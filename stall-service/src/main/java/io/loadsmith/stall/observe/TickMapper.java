package io.loadsmith.stall.observe;

import java.util.Map;
import java.util.TreeMap;

/**
 * Maps JFR ticks to {@code System.nanoTime()} from sync samples: a sample is a JFR tick stamp taken between
 * two clock readings ({@code beforeNanos}, {@code afterNanos}); only tight ones are kept (at most twice the
 * tightest seen, or {@value #ALWAYS_TIGHT_NANOS} ns), at their midpoint. A tick between two samples is
 * interpolated; one outside them is extrapolated from the nearest two. The most recent
 * {@value #MAX_SAMPLES} samples are kept. Used by one thread (the JFR stream's).
 */
final class TickMapper {

    static final long ALWAYS_TIGHT_NANOS = 20_000;
    static final int MAX_SAMPLES = 1_200;

    private final TreeMap<Long, Long> nanosByTick = new TreeMap<>();
    private long tightestNanos = Long.MAX_VALUE;

    /** Adds a sample; returns false if it was too loose to keep. */
    boolean add(long ticks, long beforeNanos, long afterNanos) {
        long width = afterNanos - beforeNanos;
        if (width < 0) {
            return false;
        }
        tightestNanos = Math.min(tightestNanos, width);
        if (width > ALWAYS_TIGHT_NANOS && width > 2 * tightestNanos) {
            return false;
        }
        nanosByTick.put(ticks, beforeNanos + width / 2);
        if (nanosByTick.size() > MAX_SAMPLES) {
            nanosByTick.pollFirstEntry();
        }
        return true;
    }

    /** True once two samples with different ticks are known. */
    boolean ready() {
        return nanosByTick.size() >= 2;
    }

    /** The clock reading of {@code ticks}; call only when {@link #ready()}. */
    long toNanos(long ticks) {
        Map.Entry<Long, Long> below = nanosByTick.floorEntry(ticks);
        Map.Entry<Long, Long> above = nanosByTick.higherEntry(ticks);
        if (below == null) {
            below = above;
            above = nanosByTick.higherEntry(below.getKey());
        } else if (above == null) {
            above = below;
            below = nanosByTick.lowerEntry(above.getKey());
        }
        double nanosPerTick = (double) (above.getValue() - below.getValue()) / (above.getKey() - below.getKey());
        return below.getValue() + Math.round((ticks - below.getKey()) * nanosPerTick);
    }
}
