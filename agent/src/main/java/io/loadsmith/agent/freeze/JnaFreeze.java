package io.loadsmith.agent.freeze;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * Stops this whole process until a moment on {@code CLOCK_MONOTONIC}, and lets the kernel continue it: a
 * POSIX timer on {@code CLOCK_MONOTONIC} whose signal is {@code SIGCONT} is set to that moment, then the
 * calling thread sends itself {@code SIGSTOP} ({@code raise}), which stops every thread of the process. The
 * kernel continues a stopped process when {@code SIGCONT} is generated for it, so nothing outside the process
 * is needed, and nothing can leave it stopped: the timer goes on firing every {@value #REPEAT_NANOS} ns until
 * the thread that stopped runs again and disarms it (a {@code SIGCONT} that came before the stop, when the
 * end had already passed, is followed by another).
 *
 * <p>The stop is sent to the calling thread, not to the process ({@code kill(getpid())}): the kernel hands a
 * process-directed signal to the main thread, so {@code kill} returns before the process stops, and the
 * thread would disarm the timer before the stop lands, leaving the process stopped for good (seen on Linux
 * 6.18). A thread-directed stop is taken by the caller on its way out of the call: when {@code raise}
 * returns, the process has stopped and gone on.
 *
 * <p>Loaded only in a class loader of its own (with JNA, by the agent's {@code NativeFreezer}), so it names
 * nothing of the agent: it is a {@code LongFunction} from the end to {@code {start, end, start uncertainty,
 * end uncertainty}} in nanoseconds of {@code System.nanoTime}, which is {@code CLOCK_MONOTONIC} on Linux (the
 * fields of the stall-service's {@code Freezer.FreezeEdges}).
 * Linux on x86-64 or AArch64 only (the signal numbers and {@code struct sigevent}'s layout are theirs).
 * One freeze at a time (the stall controller's thread).
 */
public final class JnaFreeze implements LongFunction<long[]> {

    private static final int CLOCK_MONOTONIC = 1;
    private static final int SIGEV_SIGNAL = 0;
    private static final int SIGCONT = 18;
    private static final int SIGSTOP = 19;
    private static final int TIMER_ABSTIME = 1;
    private static final int SIGEVENT_BYTES = 64;
    private static final int SIGEV_SIGNO_OFFSET = 8;
    private static final int SIGEV_NOTIFY_OFFSET = 12;
    /** The timer fires again this often until disarmed, so a lost race cannot leave the process stopped. */
    static final long REPEAT_NANOS = 2_000_000;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Function timerSettime;
    private final Function raise;
    private final Pointer timer;
    private final Memory arm = new Memory(32);
    private final Memory disarm = new Memory(32);
    private final long stopCallNanos;

    /**
     * Creates the timer (once: every freeze re-arms it).
     *
     * @throws IllegalStateException naming the native call that failed, with its errno
     */
    public JnaFreeze() {
        NativeLibrary libc = NativeLibrary.getInstance("c");
        Function timerCreate = function(libc, "timer_create");
        timerSettime = function(libc, "timer_settime");
        raise = libc.getFunction("raise");
        Memory event = new Memory(SIGEVENT_BYTES);
        event.clear();
        event.setInt(SIGEV_SIGNO_OFFSET, SIGCONT);
        event.setInt(SIGEV_NOTIFY_OFFSET, SIGEV_SIGNAL);
        Memory id = new Memory(Native.POINTER_SIZE);
        id.clear();
        check(timerCreate.invokeInt(new Object[] {CLOCK_MONOTONIC, event, id}), "timer_create(CLOCK_MONOTONIC, SIGCONT)");
        timer = id.getPointer(0);
        disarm.clear();
        arm.clear();
        stopCallNanos = stopCallNanos();
    }

    @Override
    public long[] apply(long endNanos) {
        arm.setLong(0, REPEAT_NANOS / NANOS_PER_SECOND);
        arm.setLong(8, REPEAT_NANOS % NANOS_PER_SECOND);
        arm.setLong(16, Math.floorDiv(endNanos, NANOS_PER_SECOND));
        arm.setLong(24, Math.floorMod(endNanos, NANOS_PER_SECOND));
        check(timerSettime.invokeInt(new Object[] {timer, TIMER_ABSTIME, arm, null}), "timer_settime");
        long start = System.nanoTime();
        int stopped = raise.invokeInt(new Object[] {SIGSTOP});
        long end = System.nanoTime();
        int disarmed = timerSettime.invokeInt(new Object[] {timer, 0, disarm, null});
        check(stopped, "raise(SIGSTOP)");
        check(disarmed, "timer_settime (disarm)");
        // The kernel continues every thread when the timer expires (in its interrupt, however busy the CPUs):
        // that is the window's end. This thread may run later than the others; how much later is the bound.
        if (end - endNanos < 0) { // something else sent SIGCONT first: ended before the timer, at most now
            return new long[] {start, end, stopCallNanos, 0};
        }
        return new long[] {start, endNanos, stopCallNanos, end - endNanos};
    }

    /** The median cost of the stopping call with nothing to send ({@code raise(0)}): the start edge's uncertainty. */
    private long stopCallNanos() {
        long[] costs = new long[15];
        for (int i = 0; i < costs.length; i++) {
            long t0 = System.nanoTime();
            check(raise.invokeInt(new Object[] {0}), "raise(0)");
            costs[i] = System.nanoTime() - t0;
        }
        Arrays.sort(costs);
        return costs[costs.length / 2];
    }

    /** {@code name} from libc, or from librt where an older glibc keeps the timers (before 2.34). */
    private static Function function(NativeLibrary libc, String name) {
        try {
            return libc.getFunction(name);
        } catch (UnsatisfiedLinkError e) {
            return NativeLibrary.getInstance("rt").getFunction(name);
        }
    }

    private static void check(int result, String call) {
        if (result != 0) {
            throw new IllegalStateException(call + " failed: errno " + Native.getLastError());
        }
    }
}
