package io.loadsmith.stall.bench;

import io.loadsmith.stall.gate.HoldListener;
import io.loadsmith.stall.jfr.StallEvents;
import io.loadsmith.stall.plan.StallKind;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What the JFR events of the stall windows cost, with no recording open ({@code recording=none}), with one
 * of JFR's {@code default} settings ({@code recording=default}, what {@code -XX:StartFlightRecording} opens;
 * {@code loadsmith.HeldRequest} is off there) and with that and {@code loadsmith.HeldRequest} on from 0 ms
 * ({@code recording=held-requests}):
 * {@code heldRequest}, a held request's {@code loadsmith.HeldRequest} (what its thread adds around its hold:
 * begun, ended, committed), and {@code window}, one window's {@code loadsmith.Stall} (begun, ended, committed on
 * the controller's thread). {@code baseline} is JMH's own cost. Run with the {@code bench} profile
 * (docs/benchmarks.md): {@code -Djmh.args="StallEventsBenchmark"}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class StallEventsBenchmark {

    @Param({"none", "default", "held-requests"})
    public String recording;

    private Recording open;
    private StallEvents.Run run;
    private HoldListener holds;
    private long index;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if (!recording.equals("none")) {
            open = new Recording(Configuration.getConfiguration("default"));
            if (recording.equals("held-requests")) {
                open.enable("loadsmith.HeldRequest").withThreshold(Duration.ZERO);
            }
            open.start();
        }
        run = StallEvents.forThisJvm().run("bench-1", "bench-1", true, 7);
        holds = run.opening(0, StallKind.BLOCK, 0, 1_000_000).holds();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (open != null) {
            open.close();
        }
    }

    @Benchmark
    public void baseline() {
    }

    @Benchmark
    public void heldRequest() {
        Object holding = holds.holding();
        if (holding != null) {
            holds.released(holding);
        }
    }

    @Benchmark
    public void window() {
        long i = index++;
        run.opening(i, StallKind.BLOCK, i, 1_000_000).closed(i + 10, i + 1_000_010, 3);
    }
}
