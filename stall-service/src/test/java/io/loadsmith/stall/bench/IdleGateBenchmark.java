package io.loadsmith.stall.bench;

import io.loadsmith.stall.gate.StallGate;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The cost of {@link StallGate#pass()} when no stall window is open: what every request of a host pays
 * once the agent is attached. Run with the {@code bench} profile (docs/benchmarks.md); {@code verify} does
 * not run it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class IdleGateBenchmark {

    private final StallGate isolated = new StallGate();

    /** What the agent's advice calls. */
    @Benchmark
    public void globalGatePass() {
        StallGate.global().pass();
    }

    /** An instance gate held in a field, as the Javalin plugin uses it. */
    @Benchmark
    public void isolatedGatePass() {
        isolated.pass();
    }

    /** An empty call, to subtract JMH's own overhead. */
    @Benchmark
    public void baseline() {
        // nothing
    }
}
