package io.loadsmith.agent.freeze;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * Stops this whole process between two moments on {@code CLOCK_MONOTONIC}, both kept by the kernel: two POSIX
 * timers on {@code CLOCK_MONOTONIC}, one whose signal is {@code SIGCONT} set to the end, then one whose signal
 * is {@code SIGSTOP} set to the start. At the start the kernel sends {@code SIGSTOP} to the freezing thread
 * itself ({@code SIGEV_THREAD_ID}), which stops every thread of the process (a running one at once, through an
 * interrupt); at the end it generates {@code SIGCONT}, which continues it. Sent to the process instead, the
 * stop would wait for whichever thread the kernel picks to take it, which on a busy box may run only
 * milliseconds later, after the freezing thread has read on past the start. Neither edge waits for a thread of
 * the JVM to be scheduled, so a busy box does not make a window late, and nothing outside the process is needed.
 *
 * <p>Nothing can leave the process stopped: the continue timer is set before the stop timer and goes on firing
 * every {@value #REPEAT_NANOS} ns until the freezing thread has run again and disarmed it, and the stop timer is
 * disarmed first (a stop it generated meanwhile lands before the disarm of the continue timer can run); a
 * freeze whose stop was not seen leaves the continue timer firing once a second.
 *
 * <p>The freezing thread parks until just before the start, then reads the clock in a loop: the read before the
 * gap that the stop makes is the last moment it ran (when that is after the start, the stop landed later), and
 * the read after it the first moment it ran again. A gap counts only once the stop timer has expired: on a busy
 * box a park that returns late or a preemption leaves a gap across the start too, and if the timer's expiry is
 * late as well (its CPU kept from it) that gap is not the stop, which is still to come. Once the timer has
 * expired the freezing thread runs no more until the process is continued, so a gap then is the stop. A loop
 * that reaches the end without such a gap means the process did not stop, which is an error.
 *
 * <p>Loaded only in a class loader of its own (with JNA, by the agent's {@code NativeFreezer}), so it names
 * nothing of the agent: it maps {@code {start, end}} to {@code {start, end, start uncertainty, end uncertainty}},
 * in nanoseconds of {@code System.nanoTime}, which is {@code CLOCK_MONOTONIC} on Linux (the fields of the
 * stall-service's {@code Freezer.FreezeEdges}). Linux on x86-64 or AArch64 only (the signal numbers and
 * {@code struct sigevent}'s layout are theirs). One freeze at a time (the stall controller's thread).
 */
public final class JnaFreeze implements UnaryOperator<long[]> {

    private static final int CLOCK_MONOTONIC = 1;
    private static final int SIGEV_SIGNAL = 0;
    private static final int SIGEV_THREAD_ID = 4;
    private static final int SIGCONT = 18;
    private static final int SIGSTOP = 19;
    private static final int TIMER_ABSTIME = 1;
    private static final int SIGEVENT_BYTES = 64;
    private static final int SIGEV_SIGNO_OFFSET = 8;
    private static final int SIGEV_NOTIFY_OFFSET = 12;
    private static final int SIGEV_TID_OFFSET = 16;
    /** The continue timer fires again this often until disarmed, so a lost race cannot leave the process stopped. */
    static final long REPEAT_NANOS = 2_000_000;
    /** The freezing thread reads the clock in a loop from this long before the start (a park returns late). */
    private static final long SPIN_NANOS = 200_000;
    /**
     * A gap in the thread's reads of the clock longer than this (or half the window, when shorter) that ends
     * after the start is the stop: before the start the thread may miss the clock for longer (a park that
     * returns late, a preemption), but once the stop timer has fired it runs no more until continued.
     */
    private static final long GAP_NANOS = 100_000;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final Function timerCreate;
    private final Function timerDelete;
    private final Function timerSettime;
    private final Function timerGettime;
    private final IntSupplier gettid;
    private final Pointer continueTimer;
    private Pointer stopTimer; // sends SIGSTOP to stopTimerThread
    private Thread stopTimerThread;
    private final Memory setting = new Memory(32);
    private final Memory disarm = new Memory(32);
    private final Memory remaining = new Memory(32);
    private final long clockReadNanos;

    /**
     * Creates the continue timer (once: every freeze sets it again); the stop timer is made by the first freeze,
     * for the thread that runs it, and again when a freeze runs on another thread.
     *
     * @throws IllegalStateException naming the native call that failed, with its errno
     */
    public JnaFreeze() {
        NativeLibrary libc = NativeLibrary.getInstance("c");
        timerCreate = function(libc, "timer_create");
        timerDelete = function(libc, "timer_delete");
        timerSettime = function(libc, "timer_settime");
        timerGettime = function(libc, "timer_gettime");
        gettid = threadIdCall(libc);
        continueTimer = timer(SIGCONT, 0, "SIGCONT");
        disarm.clear();
        clockReadNanos = clockReadNanos();
    }

    @Override
    public long[] apply(long[] window) {
        long start = window[0];
        long end = window[1];
        stopTimerForThisThread();
        set(continueTimer, end, REPEAT_NANOS, "timer_settime (SIGCONT at the end)");
        long gap = Math.min(GAP_NANOS, (end - start) / 2);
        // read before the stop timer is set: a start already past (a late controller) stops this thread as the
        // call returns, and the gap must still show between two reads
        long before = System.nanoTime();
        try {
            set(stopTimer, start, 0, "timer_settime (SIGSTOP at the start)");
        } catch (IllegalStateException e) {
            settime(continueTimer, disarm);
            throw e;
        }
        long after;
        boolean stopped = false;
        while (true) { // parks while the start is far, then reads the clock until the stop's gap has passed
            if (start - SPIN_NANOS - before > 0) {
                LockSupport.parkNanos(start - SPIN_NANOS - before);
            }
            after = System.nanoTime();
            if (after - start > gap && after - before > gap && stopExpired()) {
                stopped = true;
                break;
            }
            if (after - end >= 0) {
                break;
            }
            before = after;
        }
        int stopDisarmed = settime(stopTimer, disarm);
        if (!stopped) { // a stop may still land: keep a slow continue behind it
            set(continueTimer, System.nanoTime() + NANOS_PER_SECOND, NANOS_PER_SECOND, "timer_settime (SIGCONT backstop)");
            throw new IllegalStateException("the process did not stop: its stop timer was set, and the freezing thread "
                    + "ran on to the window's end");
        }
        int continueDisarmed = settime(continueTimer, disarm);
        check(stopDisarmed, "timer_settime (disarm SIGSTOP)");
        check(continueDisarmed, "timer_settime (disarm SIGCONT)");
        long stoppedAt = before - start > 0 ? before : start; // seen running after the start: stopped after that
        // The kernel continues every thread when the timer expires (in its interrupt, however busy the CPUs):
        // that is the window's end. This thread may run later than the others; how much later is the bound.
        if (after - end < 0) { // something else sent SIGCONT first: ended before the timer, at most now
            return new long[] {stoppedAt, after, clockReadNanos, 0};
        }
        return new long[] {stoppedAt, end, clockReadNanos, after - end};
    }

    /** The stop timer, made again for this thread when the last freeze ran on another one. */
    private void stopTimerForThisThread() {
        if (stopTimer != null && stopTimerThread == Thread.currentThread()) {
            return;
        }
        int tid = gettid.getAsInt();
        Pointer made = timer(SIGSTOP, tid, "SIGSTOP to thread " + tid);
        if (stopTimer != null) {
            timerDelete.invokeInt(new Object[] {stopTimer});
        }
        stopTimer = made;
        stopTimerThread = Thread.currentThread();
    }

    /** A timer whose signal goes to the process, or to the thread {@code tid} when it is not 0. */
    private Pointer timer(int signal, int tid, String name) {
        Memory event = new Memory(SIGEVENT_BYTES);
        event.clear();
        event.setInt(SIGEV_SIGNO_OFFSET, signal);
        event.setInt(SIGEV_NOTIFY_OFFSET, tid == 0 ? SIGEV_SIGNAL : SIGEV_THREAD_ID);
        event.setInt(SIGEV_TID_OFFSET, tid);
        Memory id = new Memory(Native.POINTER_SIZE);
        id.clear();
        check(timerCreate.invokeInt(new Object[] {CLOCK_MONOTONIC, event, id}), "timer_create(CLOCK_MONOTONIC, " + name + ")");
        return id.getPointer(0);
    }

    /** Sets {@code timer} to expire at {@code atNanos} on CLOCK_MONOTONIC, then every {@code repeatNanos} (0: once). */
    private void set(Pointer timer, long atNanos, long repeatNanos, String call) {
        setting.setLong(0, repeatNanos / NANOS_PER_SECOND);
        setting.setLong(8, repeatNanos % NANOS_PER_SECOND);
        setting.setLong(16, Math.floorDiv(atNanos, NANOS_PER_SECOND));
        setting.setLong(24, Math.floorMod(atNanos, NANOS_PER_SECOND));
        check(timerSettime.invokeInt(new Object[] {timer, TIMER_ABSTIME, setting, null}), call);
    }

    /**
     * True once the one-shot stop timer has expired (it then reads as disarmed: no time left), or when it cannot
     * be read (then the gap alone decides, as it would without this check).
     */
    private boolean stopExpired() {
        if (timerGettime.invokeInt(new Object[] {stopTimer, remaining}) != 0) {
            return true;
        }
        return remaining.getLong(16) == 0 && remaining.getLong(24) == 0;
    }

    private int settime(Pointer timer, Memory value) {
        return timerSettime.invokeInt(new Object[] {timer, 0, value, null});
    }

    /** The median time between two reads of the clock in a loop: the start edge's uncertainty. */
    private static long clockReadNanos() {
        long[] gaps = new long[101];
        long last = System.nanoTime();
        for (int i = 0; i < gaps.length; i++) {
            long now = System.nanoTime();
            gaps[i] = now - last;
            last = now;
        }
        Arrays.sort(gaps);
        return Math.max(1, gaps[gaps.length / 2]);
    }

    /** The calling thread's kernel id: glibc's gettid (2.30 and later), or the system call on an older one. */
    private static IntSupplier threadIdCall(NativeLibrary libc) {
        try {
            Function gettid = libc.getFunction("gettid");
            return () -> gettid.invokeInt(new Object[0]);
        } catch (UnsatisfiedLinkError beforeGlibc230) {
            Function syscall = libc.getFunction("syscall");
            long number = System.getProperty("os.arch", "").equals("aarch64") ? 178 : 186; // SYS_gettid
            return () -> syscall.invokeInt(new Object[] {number});
        }
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
