package io.loadsmith.agent.bench;

import static net.bytebuddy.matcher.ElementMatchers.named;

import io.loadsmith.agent.target.GateOnEnter;
import io.loadsmith.agent.target.GateOnExit;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
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
 * What the agent's advice costs a gated method while no stall is armed: the same small method
 * ({@link Work#applyAsInt}) plain, with the entry gate inlined ({@link GateOnEnter}, as every target has)
 * and with the entry and exit gates ({@link GateOnExit}, as the servlet and {@code method=} targets
 * have), woven by Byte Buddy's {@code Advice} exactly as the agent weaves them. The gate is the real,
 * global {@code StallGate}, disarmed. The differences are the per-call cost; whether the advice stopped
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
    public void weave() throws ReflectiveOperationException {
        plain = new Work();
        entryGated = woven("EntryGated", Advice.to(GateOnEnter.class));
        entryAndExitGated = woven("EntryAndExitGated", Advice.to(GateOnEnter.class), Advice.to(GateOnExit.class));
    }

    /** A copy of {@link Work} named {@code suffix}, with {@code advice} woven into {@code applyAsInt}. */
    private static IntUnaryOperator woven(String suffix, Advice... advice) throws ReflectiveOperationException {
        var builder = new ByteBuddy().redefine(Work.class).name(Work.class.getName() + "$" + suffix);
        for (Advice each : advice) {
            builder = builder.visit(each.withExceptionHandler(Advice.ExceptionHandler.Default.SUPPRESSING).on(named("applyAsInt")));
        }
        Class<? extends Work> type = builder.make().load(Work.class.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER).getLoaded();
        return type.getDeclaredConstructor().newInstance();
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
