package io.loadsmith.agent.target;

import io.loadsmith.stall.gate.ReplicaHeader;
import io.loadsmith.stall.gate.StallGate;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * {@link GateOnEnter} with {@code trace-header=on}, for methods whose argument 0 carries the response:
 * reads the clock before and after the gate and puts the {@code Loadsmith-Replica} header on the response
 * ({@link ReplicaHeader}). Used only when the option is on, so with it off the gate is what it always was.
 */
public final class GateOnEnterTraced0 {

    private GateOnEnterTraced0() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, typing = Assigner.Typing.DYNAMIC) Object response) {
        long recvNanos = System.nanoTime();
        StallGate.passGlobal();
        ReplicaHeader.add(response, recvNanos, System.nanoTime());
    }
}
