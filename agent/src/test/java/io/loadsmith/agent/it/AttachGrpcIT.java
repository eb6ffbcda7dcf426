package io.loadsmith.agent.it;

/** The stall contract through {@code attach PID} into a grpc-java 1.85 service that has served calls for 3 s. */
class AttachGrpcIT extends AbstractGrpcStallIT {
    @Override protected String expectedGate() { return "io.grpc.internal.ServerCallImpl#sendHeaders"; }
    @Override protected boolean viaAttach() { return true; }
}
