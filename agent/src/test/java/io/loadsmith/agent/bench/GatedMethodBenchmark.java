package io.loadsmith.agent.bench;

import static io.loadsmith.agent.target.MethodMatcher.named;

import io.loadsmith.agent.WovenClasses;
import io.loadsmith.agent.target.Gate;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the agent's gates cost a gated method while no stall is armed: the same small method
 * ({@link Work#applyAsInt}) plain, with the entry gate (as every target has) and with the entry and exit
 * gates (as the servlet and {@code method=} targets have), woven by the agent's own weaver exactly as it
 * weaves a host's class. The gate is the real, global {@code StallGate}, disarmed. The differences are the
 * per-call cost; whether the gate stopped
 * the method from being inlined into its caller shows with
 * {@code -jvmArgsAppend "-XX:+UnlockDiagnosticVMOptions -XX:+PrintInlining"}. Run with
 * {@code agent/bench/gated-method.sh} (docs/benchmarks.md); {@code verify} does not run it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(3)
@State(Scope.Benchmark)
public class GatedMethodBenchmark {

    /** The method to gate: a little arithmetic, small enough to be inlined into its caller. */
    public static class Work implements IntUnaryOperator {
        @Override
        public int applyAsInt(int value) {
            return Integer.rotateLeft(value * 0x9E3779B9, 13) ^ value;
        }
    }

    private IntUnaryOperator plain;
    private IntUnaryOperator entryGated;
    private IntUnaryOperator entryAndExitGated;
    private int value;

    @Setup
    public void weave() throws ReflectiveOperationException, IOException {
        plain = new Work();
        entryGated = woven(Gate.enter(Work.class.getName(), named("applyAsInt"), "applyAsInt(int)"));
        entryAndExitGated = woven(Gate.around(Work.class.getName(), named("applyAsInt"), "applyAsInt(int)"));
    }

    /** A copy of {@link Work} in a class loader of its own, with {@code gate} woven into {@code applyAsInt}. */
    private static IntUnaryOperator woven(Gate gate) throws ReflectiveOperationException, IOException {
        return (IntUnaryOperator) WovenClasses.woven(Work.class, List.of(gate), false).getDeclaredConstructor()
                .newInstance();
    }

    @Benchmark
    public int plain() {
        return plain.applyAsInt(value++);
    }

    @Benchmark
    public int entryGated() {
        return entryGated.applyAsInt(value++);
    }

    @Benchmark
    public int entryAndExitGated() {
        return entryAndExitGated.applyAsInt(value++);
    }
}
