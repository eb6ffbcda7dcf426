package io.loadsmith.agent.it;

/** The stall contract on a grpc-java 1.85 service (grpc-netty-shaded) with the agent from its start. */
class GrpcStallIT extends AbstractGrpcStallIT {
    @Override protected String expectedGate() { return "io.grpc.internal.ServerImpl$ServerTransportListenerImpl#startWrappedCall"; }
}
