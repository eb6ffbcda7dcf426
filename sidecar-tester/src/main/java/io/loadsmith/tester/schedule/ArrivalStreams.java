package io.loadsmith.tester.schedule;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Per-arrival random draws that do not depend on the order in which arrivals are handled (docs/engine.md,
 * "per-arrival draws"): the draw for arrival k of a named stream is a pure function of
 * (seed, stream name, k). A shard that keeps only some arrivals, or a journey choice drawn for arrival k,
 * therefore never shifts the draws of any other arrival, and never touches the stream that gives the
 * arrival times ({@code new SplittableRandom(seed)}).
 *
 * <pre>{@code
 * ArrivalStreams journeys = ArrivalStreams.of(seed, "journey");
 * double u = journeys.uniform(k);                  // in [0, 1)
 * SplittableRandom rows = journeys.random(k);      // several draws for arrival k
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class ArrivalStreams {

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private final long streamSeed;

    private ArrivalStreams(long streamSeed) {
        this.streamSeed = streamSeed;
    }

    /** The stream {@code name} of a run seeded with {@code seed}. */
    public static ArrivalStreams of(long seed, String name) {
        long h = 0xcbf29ce484222325L; // FNV-1a over the UTF-8 name: stable on every JVM
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return new ArrivalStreams(mix64(seed ^ mix64(h)));
    }

    /** A uniform draw in [0, 1) for arrival {@code arrival}. */
    public double uniform(long arrival) {
        return (seedFor(arrival) >>> 11) * 0x1.0p-53;
    }

    /** A fresh generator for arrival {@code arrival}, for several draws. */
    public SplittableRandom random(long arrival) {
        return new SplittableRandom(seedFor(arrival));
    }

    /**
     * {@code random(arrival).nextInt(bound)} (the first draw of the arrival's generator, in [0, bound)),
     * without making the generator: SplittableRandom's own steps (its golden gamma, {@code mix32} and the
     * rejection loop of a bound that is not a power of two), the same on every JDK.
     */
    public int nextInt(long arrival, int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive (got " + bound + ")");
        }
        long seed = seedFor(arrival);
        int r = mix32(seed += GOLDEN_GAMMA);
        int m = bound - 1;
        if ((bound & m) == 0) {
            return r & m;
        }
        for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = mix32(seed += GOLDEN_GAMMA) >>> 1) {
            // rejected: the draw fell in the last, partial, run of bound
        }
        return r;
    }

    private static int mix32(long z) {
        z = (z ^ (z >>> 33)) * 0x62a9d9ed799705f5L;
        return (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3L) >>> 32);
    }

    private long seedFor(long arrival) {
        return mix64(streamSeed + (arrival + 1) * 0x9e3779b97f4a7c15L);
    }

    /** SplitMix64's finaliser (David Stafford's variant 13), as in java.util.SplittableRandom. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
