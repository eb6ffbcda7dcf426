package io.loadsmith.stall.observe;

import java.util.Map;
import java.util.TreeMap;

/**
 * Maps JFR ticks to {@code System.nanoTime()} from sync samples: a sample is a JFR tick stamp taken between
 * two clock readings ({@code beforeNanos}, {@code afterNanos}), placed at their midpoint. Only tight samples
 * are kept: at most twice as wide as the tightest seen, or at most {@value #ALWAYS_TIGHT_NANOS} ns wide; a
 * new tightest sample evicts the ones it makes too wide (the first commits of a JVM can take milliseconds).
 * A tick between two samples is interpolated between them; one before the first sample or after the last
 * is extrapolated from the nearest one at the rate of the widest span of samples. The most recent
 * {@value #MAX_SAMPLES} samples are kept. Used by one thread (the JFR stream's).
 */
final class TickMapper {

    static final long ALWAYS_TIGHT_NANOS = 20_000;
    static final int MAX_SAMPLES = 1_200;

    private record Sample(long nanos, long widthNanos) {
    }

    private final TreeMap<Long, Sample> samples = new TreeMap<>();
    private long tightestNanos = Long.MAX_VALUE;

    /** Adds a sample; returns false if it was too wide to keep. */
    boolean add(long ticks, long beforeNanos, long afterNanos) {
        long width = afterNanos - beforeNanos;
        if (width < 0) {
            return false;
        }
        if (width < tightestNanos) {
            tightestNanos = width;
            samples.values().removeIf(sample -> tooWide(sample.widthNanos()));
        }
        if (tooWide(width)) {
            return false;
        }
        samples.put(ticks, new Sample(beforeNanos + width / 2, width));
        if (samples.size() > MAX_SAMPLES) {
            samples.pollFirstEntry();
        }
        return true;
    }

    private boolean tooWide(long width) {
        return width > ALWAYS_TIGHT_NANOS && width > 2 * tightestNanos;
    }

    /** True once two samples with different ticks are known. */
    boolean ready() {
        return samples.size() >= 2;
    }

    /** True when {@code ticks} is at or before the last sample, so that it maps by interpolation. */
    boolean covers(long ticks) {
        return !samples.isEmpty() && samples.lastKey() - ticks >= 0;
    }

    /** The clock reading of {@code ticks}; call only when {@link #ready()}. */
    long toNanos(long ticks) {
        Map.Entry<Long, Sample> below = samples.floorEntry(ticks);
        Map.Entry<Long, Sample> above = samples.ceilingEntry(ticks);
        if (below != null && above != null) {
            if (below.getKey().equals(above.getKey())) {
                return below.getValue().nanos();
            }
            return at(below, ticks, rate(below, above));
        }
        double rate = rate(samples.firstEntry(), samples.lastEntry());
        return at(below != null ? below : above, ticks, rate);
    }

    private static double rate(Map.Entry<Long, Sample> from, Map.Entry<Long, Sample> to) {
        return (double) (to.getValue().nanos() - from.getValue().nanos()) / (to.getKey() - from.getKey());
    }

    private static long at(Map.Entry<Long, Sample> anchor, long ticks, double nanosPerTick) {
        return anchor.getValue().nanos() + Math.round((ticks - anchor.getKey()) * nanosPerTick);
    }
}
