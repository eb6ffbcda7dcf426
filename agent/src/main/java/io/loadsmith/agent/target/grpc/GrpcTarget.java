package io.loadsmith.agent.target.grpc;

import static io.loadsmith.agent.target.MethodMatcher.named;
import static io.loadsmith.agent.target.MethodMatcher.takesArgument;
import static io.loadsmith.agent.target.MethodMatcher.takesArguments;

import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import java.util.List;

/**
 * grpc-java servers, on any transport (grpc-netty-shaded, grpc-netty, in-process, servlet): the gates are in
 * grpc-core's {@code io.grpc.internal}, which every transport hands its streams to. Entry:
 * {@code ServerImpl$ServerTransportListenerImpl#startWrappedCall(String, ServerCallParameters, Metadata)},
 * which hands a call to the service's handler (its interceptors, then the stub's {@code ServerCalls}
 * handler); it runs on the call's serializing executor, before any message of the call is delivered, so a
 * held call is one the service has not started, unary or streaming. Response:
 * {@code ServerCallImpl#sendHeaders}, {@code #sendMessage} and {@code #close}, on the thread the service
 * answers from, so an answer that is ready is held before its headers, each message of a stream at its
 * write, and a call that ends with its status alone (an error) at its close.
 *
 * <p>The entry gate holds the thread that runs the call executor: one of the server's executor threads
 * (by default grpc's cached {@code grpc-default-executor} pool, one thread a held call), or with
 * {@code directExecutor()} the transport's own thread (a Netty event loop, held as the {@code netty}
 * target holds it). The guard is the nested {@code ServerCallParameters}, present with this method shape
 * since grpc-java 1.40.
 */
public final class GrpcTarget {

    private static final String LISTENER = "io.grpc.internal.ServerImpl$ServerTransportListenerImpl";
    private static final String CALL = "io.grpc.internal.ServerCallImpl";

    private GrpcTarget() {
    }

    public static Target target() {
        return new Target("grpc", "grpc-java 1.40+ servers, every transport (netty-shaded, netty, in-process)",
                List.of(resource(LISTENER + "$ServerCallParameters"), resource(CALL)),
                List.of(
                        Gate.enter(LISTENER,
                                named("startWrappedCall").and(takesArguments(3))
                                        .and(takesArgument(1, LISTENER + "$ServerCallParameters")),
                                "startWrappedCall(String, ServerCallParameters, Metadata)"),
                        Gate.enter(CALL,
                                named("sendHeaders").and(takesArguments(1))
                                        .or(named("sendMessage").and(takesArguments(1)))
                                        .or(named("close").and(takesArguments(2))),
                                "sendHeaders(Metadata)/sendMessage(RespT)/close(Status, Metadata)")));
    }

    private static String resource(String binaryName) {
        return binaryName.replace('.', '/') + ".class";
    }
}
