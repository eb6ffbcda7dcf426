package io.loadsmith.tester.simulate;

import java.util.SplittableRandom;

/**
 * A service-time model of the simulated server: how long the server works on one request, in
 * nanoseconds. {@link #sampler(long)} gives a seeded, reproducible stream of draws (in the order requests
 * start service). Immutable.
 */
public abstract sealed class ServiceTime {

    private ServiceTime() {
    }

    /** Every request takes exactly nanos. */
    public static ServiceTime constant(long nanos) {
        requirePositive(nanos, "service_time");
        return new Constant(nanos);
    }

    /** Exponentially distributed with the given mean. */
    public static ServiceTime exponential(long meanNanos) {
        requirePositive(meanNanos, "service_time.mean");
        return new Exponential(meanNanos);
    }

    /** Log-normal: exp(N(ln median, sigma²)); sigma 0 is constant at median. */
    public static ServiceTime logNormal(long medianNanos, double sigma) {
        requirePositive(medianNanos, "service_time.median");
        if (!(sigma >= 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("service_time.sigma must be >= 0 (got " + sigma + ")");
        }
        return new LogNormal(medianNanos, sigma);
    }

    private static void requirePositive(long nanos, String field) {
        if (nanos <= 0) {
            throw new IllegalArgumentException(field + " must be > 0 (got " + nanos + " ns)");
        }
    }

    /** A seeded stream of draws. */
    public abstract Sampler sampler(long seed);

    /** The mean, in nanoseconds. */
    public abstract double meanNanos();

    /** A stream of service times; not thread-safe. */
    @FunctionalInterface
    public interface Sampler {
        long nextNanos();
    }

    private static final class Constant extends ServiceTime {
        private final long nanos;

        Constant(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public Sampler sampler(long seed) {
            return () -> nanos;
        }

        @Override
        public double meanNanos() {
            return nanos;
        }

        @Override
        public String toString() {
            return "constant " + nanos + " ns";
        }
    }

    private static final class Exponential extends ServiceTime {
        private final long meanNanos;

        Exponential(long meanNanos) {
            this.meanNanos = meanNanos;
        }

        @Override
        public Sampler sampler(long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            return () -> Math.max(1, Math.round(-StrictMath.log1p(-random.nextDouble()) * meanNanos));
        }

        @Override
        public double meanNanos() {
            return meanNanos;
        }

        @Override
        public String toString() {
            return "exponential, mean " + meanNanos + " ns";
        }
    }

    private static final class LogNormal extends ServiceTime {
        private final long medianNanos;
        private final double sigma;

        LogNormal(long medianNanos, double sigma) {
            this.medianNanos = medianNanos;
            this.sigma = sigma;
        }

        @Override
        public Sampler sampler(long seed) {
            SplittableRandom random = new SplittableRandom(seed);
            double mu = StrictMath.log(medianNanos);
            return () -> Math.max(1, Math.round(StrictMath.exp(mu + sigma * gaussian(random))));
        }

        /** Box–Muller on two uniforms, with StrictMath: the same bits on every JVM. */
        private static double gaussian(SplittableRandom random) {
            double u1 = 1.0 - random.nextDouble(); // (0, 1]
            double u2 = random.nextDouble();
            return StrictMath.sqrt(-2 * StrictMath.log(u1)) * StrictMath.cos(2 * Math.PI * u2);
        }

        @Override
        public double meanNanos() {
            return medianNanos * Math.exp(sigma * sigma / 2);
        }

        @Override
        public String toString() {
            return "log-normal, median " + medianNanos + " ns, sigma " + sigma;
        }
    }
}
