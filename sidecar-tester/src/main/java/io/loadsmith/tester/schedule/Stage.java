package io.loadsmith.tester.schedule;

/**
 * One ramp stage: over {@code durationNanos} the arrival rate moves linearly from where the previous stage
 * ended (or the start rate) to {@code targetPerSecond}. A stage whose target equals the rate before it is
 * a constant-rate stage.
 */
public record Stage(long durationNanos, double targetPerSecond) {
    public Stage {
        if (durationNanos <= 0) {
            throw new IllegalArgumentException("stage duration must be > 0 (got " + durationNanos + " ns)");
        }
        if (!(targetPerSecond >= 0) || Double.isInfinite(targetPerSecond)) {
            throw new IllegalArgumentException("stage target must be >= 0 (got " + targetPerSecond + ")");
        }
    }
}
