package io.loadsmith.examples.scoring;

import com.google.protobuf.DynamicMessage;
import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC side: {@code scoring.Scorer/Score} ({@link ScorerProtocol}) on grpc-java's shaded Netty transport,
 * scored by the same {@link CustomerScores} as {@code GET /score/{id}}: the same score text, {@code NOT_FOUND}
 * for an unknown id, {@code INVALID_ARGUMENT} for an id below 1.
 *
 * <p>Calls run on the executor given (the HTTP side's request threads), never on Netty's event loop: grpc-java
 * hands a call to the method on that executor, so a call held there is one the model has not started, and
 * {@code --threads 1} keeps one worker for both protocols.
 */
final class ScoringGrpcServer implements AutoCloseable {

    private static final long STOP_SECONDS = 5;

    private final Server server;

    private ScoringGrpcServer(Server server) {
        this.server = server;
    }

    /** Starts serving on {@code host}; {@code port} 0 picks a free one (see {@link #port()}). */
    static ScoringGrpcServer start(CustomerScores scores, String host, int port, Executor requestThreads) {
        ServerServiceDefinition scorer = ServerServiceDefinition.builder(ScorerProtocol.SERVICE)
                .addMethod(ScorerProtocol.SCORE, ServerCalls.asyncUnaryCall(
                        (DynamicMessage request, StreamObserver<DynamicMessage> reply) -> score(scores, request, reply)))
                .build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(host, port), InsecureServerCredentials.create())
                .executor(requestThreads)
                .addService(scorer)
                .build();
        try {
            return new ScoringGrpcServer(server.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve gRPC on " + host + ":" + port, e);
        }
    }

    /** The port it listens on. */
    int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.shutdown();
        try {
            if (!server.awaitTermination(STOP_SECONDS, TimeUnit.SECONDS)) {
                server.shutdownNow();
            }
        } catch (InterruptedException e) {
            server.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static void score(CustomerScores scores, DynamicMessage request, StreamObserver<DynamicMessage> reply) {
        int customerId = (Integer) request.getField(ScorerProtocol.REQUEST_CUSTOMER_ID);
        if (customerId < 1) {
            reply.onError(Status.INVALID_ARGUMENT
                    .withDescription("customer_id must be a positive integer (got " + customerId + ")").asRuntimeException());
            return;
        }
        try {
            reply.onNext(ScorerProtocol.reply(customerId, scores.ofCustomer(customerId).toPlainString()));
            reply.onCompleted();
        } catch (ApiException e) { // ofCustomer refuses only an unknown id
            reply.onError(Status.NOT_FOUND.withDescription(e.getMessage()).asRuntimeException());
        }
    }
}
