package io.loadsmith.agent.apps;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * A grpc-java in-process server (the server's default executor) and its client, for a test that loads them
 * with grpc-java in a class loader of its own and so reaches them through JDK interfaces only.
 * {@code apply("unary")} calls {@link GrpcApp#WORK}; {@code apply("stream")} opens a client stream, sends
 * one message and half-closes; each completes with what the service answered. {@code getAsInt()}: the
 * unary calls and the stream messages the service has seen.
 */
public final class GrpcInProcessCalls implements Function<String, CompletableFuture<String>>, IntSupplier, AutoCloseable {
    private static final MethodDescriptor<byte[], byte[]> COUNT = GrpcApp.WORK.toBuilder()
            .setType(MethodDescriptor.MethodType.CLIENT_STREAMING)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("loadsmith.Work", "Count"))
            .build();

    private final AtomicInteger seen = new AtomicInteger();
    private final Server server;
    private final ManagedChannel channel;

    public GrpcInProcessCalls() throws IOException {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(service()).build().start();
        channel = InProcessChannelBuilder.forName(name).build();
    }

    private ServerServiceDefinition service() {
        return ServerServiceDefinition.builder("loadsmith.Work")
                .addMethod(GrpcApp.WORK, ServerCalls.asyncUnaryCall((request, answer) -> {
                    seen.incrementAndGet();
                    answer.onNext(bytes("ok"));
                    answer.onCompleted();
                }))
                .addMethod(COUNT, ServerCalls.asyncClientStreamingCall(answer -> new StreamObserver<byte[]>() {
                    private int messages;

                    @Override
                    public void onNext(byte[] message) {
                        seen.incrementAndGet();
                        messages++;
                    }

                    @Override
                    public void onError(Throwable t) {
                        // the client went away: nothing to answer
                    }

                    @Override
                    public void onCompleted() {
                        answer.onNext(bytes(String.valueOf(messages)));
                        answer.onCompleted();
                    }
                }))
                .build();
    }

    @Override
    public CompletableFuture<String> apply(String kind) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        StreamObserver<byte[]> answers = new StreamObserver<>() {
            @Override
            public void onNext(byte[] value) {
                answer.complete(new String(value, StandardCharsets.US_ASCII));
            }

            @Override
            public void onError(Throwable t) {
                answer.completeExceptionally(t);
            }

            @Override
            public void onCompleted() {
                answer.complete("(no answer)");
            }
        };
        if (kind.equals("unary")) {
            ClientCalls.asyncUnaryCall(channel.newCall(GrpcApp.WORK, CallOptions.DEFAULT), bytes("0"), answers);
        } else {
            StreamObserver<byte[]> messages = ClientCalls.asyncClientStreamingCall(
                    channel.newCall(COUNT, CallOptions.DEFAULT), answers);
            messages.onNext(bytes("first"));
            messages.onCompleted();
        }
        return answer;
    }

    @Override
    public int getAsInt() {
        return seen.get();
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
