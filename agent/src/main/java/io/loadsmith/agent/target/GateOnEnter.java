package io.loadsmith.agent.target;

import io.loadsmith.stall.gate.StallGate;
import net.bytebuddy.asm.Advice;

/**
 * Advice inlined at the start of a gated method: holds the thread while a stall is active (one
 * volatile read otherwise). Anything it throws is swallowed, so it can never fail the host. It adds 8
 * bytes to the method (one static call, and the jump over the handler that swallows); holding a thread
 * is out of line, in the gate.
 */
public final class GateOnEnter {

    private GateOnEnter() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
        StallGate.passGlobal();
    }
}
