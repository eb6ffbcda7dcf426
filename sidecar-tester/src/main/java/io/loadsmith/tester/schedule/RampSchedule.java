package io.loadsmith.tester.schedule;

import java.util.List;
import java.util.SplittableRandom;

/** Inversion of a piecewise-linear integrated rate; see {@link ArrivalSchedule#stages}. */
final class RampSchedule implements ArrivalSchedule {

    private final long[] segmentStartNanos;
    private final double[] segmentStartRate;    // per second
    private final double[] segmentSlope;        // per second, per second
    private final double[] segmentStartMass;    // expected arrivals before the segment
    private final double[] segmentMass;
    private final SplittableRandom random;
    private double unitTime;                    // the unit-rate stream's current point
    private long k;
    private int segment;

    RampSchedule(double startPerSecond, List<Stage> stages, boolean poisson, long seed) {
        if (!(startPerSecond >= 0) || Double.isInfinite(startPerSecond)) {
            throw new IllegalArgumentException("start rate must be >= 0 (got " + startPerSecond + ")");
        }
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("stages must not be empty");
        }
        int n = stages.size();
        segmentStartNanos = new long[n + 1];
        segmentStartRate = new double[n];
        segmentSlope = new double[n];
        segmentStartMass = new double[n];
        segmentMass = new double[n];
        double rate = startPerSecond;
        double mass = 0;
        for (int i = 0; i < n; i++) {
            Stage stage = stages.get(i);
            double seconds = stage.durationNanos() / 1e9;
            segmentStartRate[i] = rate;
            segmentSlope[i] = (stage.targetPerSecond() - rate) / seconds;
            segmentStartMass[i] = mass;
            segmentMass[i] = (rate + stage.targetPerSecond()) / 2 * seconds;
            mass += segmentMass[i];
            segmentStartNanos[i + 1] = segmentStartNanos[i] + stage.durationNanos();
            rate = stage.targetPerSecond();
        }
        this.random = poisson ? new SplittableRandom(seed) : null;
    }

    @Override
    public long nextOffsetNanos() {
        double target;
        if (random != null) {
            unitTime += -StrictMath.log1p(-random.nextDouble());
            target = unitTime;
        } else {
            target = k;
        }
        while (segment < segmentMass.length && target >= segmentStartMass[segment] + segmentMass[segment]) {
            segment++;
        }
        if (segment == segmentMass.length) {
            return -1;
        }
        k++;
        double x = target - segmentStartMass[segment];
        double a = segmentStartRate[segment];
        double b = segmentSlope[segment];
        // solve a·t + b·t²/2 = x for the smallest t >= 0, in the form that is stable for b of either sign
        double denominator = a + Math.sqrt(Math.max(0, a * a + 2 * b * x));
        double seconds = denominator == 0 ? 0 : 2 * x / denominator;
        long offset = segmentStartNanos[segment] + Math.round(seconds * 1e9);
        return Math.min(offset, segmentStartNanos[segment + 1] - 1);
    }

    @Override
    public long index() {
        return k - 1;
    }

    /** The expected number of arrivals (integrated rate) in [0, nanos). */
    double integratedRate(long nanos) {
        double mass = 0;
        for (int i = 0; i < segmentMass.length; i++) {
            if (nanos <= segmentStartNanos[i]) {
                break;
            }
            double t = (Math.min(nanos, segmentStartNanos[i + 1]) - segmentStartNanos[i]) / 1e9;
            mass += segmentStartRate[i] * t + segmentSlope[i] * t * t / 2;
        }
        return mass;
    }
}
