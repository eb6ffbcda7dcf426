package io.loadsmith.stall.gate;

import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.plan.StallKind;

/**
 * Where a request is held: a request thread calls {@link #pass()} where a request enters the server and
 * again before its response is committed. While no stall window is open, {@code pass()} costs one
 * volatile read. While a window is open, a thread that enters waits until the window closes: parked
 * (no CPU) for a {@link StallKind#BLOCK} window, busy-waiting for a {@link StallKind#SPIN} one.
 *
 * <p>Windows are opened and closed by the stall controller through {@link #open(Clock, long, StallKind)};
 * at most one window is open at a time. A held thread is released when its window is closed (the
 * controller closes it on time, or at once on disarm) or when the window's clock reaches its end,
 * whichever comes first, so a thread is never released before the end of an undisturbed window and
 * never kept after it by more than the scheduler's wake-up latency.
 *
 * <p>Threads marked with {@link #exemptCurrentThread()} (the admin server's own) are never held.
 * {@code pass()} never throws; an interrupt that arrives while a thread is held does not release it
 * early, and the thread's interrupt flag is set again when it leaves.
 *
 * <p>Thread-safe. {@link #global()} is the one gate of the JVM (the agent's advice calls it);
 * {@code new StallGate()} makes an isolated one (tests, the Javalin plugin).
 *
 * <p>For the agent's bootstrap class path: the gate needs nothing but {@code java.base} and seven classes,
 * {@code gate.StallGate}, {@code gate.GateWindow}, {@code gate.HoldListener}, {@code clock.Clock}, {@code clock.SystemClock},
 * {@code plan.StallKind} and {@code plan.PlanException} (GateBootstrapClosureTest keeps it so). The
 * rest of stall-service cannot live there: the admin server needs the JDK's HTTP server, a
 * platform-loader module that bootstrap classes cannot see.
 */
public final class StallGate {

    private static final StallGate GLOBAL = new StallGate();

    private static final ThreadLocal<Boolean> EXEMPT = new ThreadLocal<>();

    /** The open window, or null when idle: the one volatile read of the idle path. */
    private volatile GateWindow open;

    /** Creates an isolated gate with no window open. */
    public StallGate() {
    }

    /** The JVM-wide gate that the agent's gates call. */
    public static StallGate global() {
        return GLOBAL;
    }

    /**
     * {@code global().pass()} in one static call: what the agent weaves into a gated method, so that the gate
     * adds as few bytes as possible to it (3: a method's size decides whether the JIT inlines it). One
     * volatile read while no window is open; never throws.
     */
    public static void passGlobal() {
        GLOBAL.pass();
    }

    /** Marks the calling thread as never held by any gate (for the admin server's own threads). */
    public static void exemptCurrentThread() {
        EXEMPT.set(Boolean.TRUE);
    }

    /** True if the calling thread was marked with {@link #exemptCurrentThread()}. */
    public static boolean isCurrentThreadExempt() {
        return EXEMPT.get() != null;
    }

    /**
     * Lets the calling request thread through: at once when no window is open, else when the open window
     * closes. Never throws.
     */
    public void pass() {
        GateWindow window = open;
        if (window != null) {
            holdQuietly(window);
        }
    }

    private static void holdQuietly(GateWindow window) {
        try {
            if (EXEMPT.get() == null) {
                window.hold();
            }
        } catch (Throwable ignored) {
            // the gate sits on the host's request path: it must never fail a request
        }
    }

    /**
     * Opens a window that holds every thread entering {@link #pass()} until it is closed or until
     * {@code clock} reaches {@code endNanos}. Any window still open is closed first. For the stall
     * controller; hosts only call {@link #pass()}.
     */
    public GateWindow open(Clock clock, long endNanos, StallKind kind) {
        return open(clock, endNanos, kind, null);
    }

    /**
     * {@link #open(Clock, long, StallKind)} with a listener told of each thread the window holds, on that
     * thread ({@code null}: none).
     */
    public GateWindow open(Clock clock, long endNanos, StallKind kind, HoldListener listener) {
        GateWindow window = new GateWindow(this, clock, endNanos, kind, listener);
        GateWindow previous;
        synchronized (this) {
            previous = open;
            open = window;
        }
        if (previous != null) {
            previous.close();
        }
        return window;
    }

    /** The window open now, or null. */
    public GateWindow openWindow() {
        return open;
    }

    void cleared(GateWindow window) {
        synchronized (this) {
            if (open == window) {
                open = null;
            }
        }
    }
}
