package io.loadsmith.agent.target;

import io.loadsmith.stall.gate.StallGate;
import net.bytebuddy.asm.Advice;

/**
 * Advice inlined at the end of a gated method (also when it throws): holds the thread while a stall is
 * active, so that a response the method's caller commits next waits for the stall to end. It reads no
 * argument, so Byte Buddy keeps no copy of them ({@code backupArguments = false}).
 */
public final class GateOnExit {

    private GateOnExit() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class, backupArguments = false)
    public static void exit() {
        StallGate.passGlobal();
    }
}
