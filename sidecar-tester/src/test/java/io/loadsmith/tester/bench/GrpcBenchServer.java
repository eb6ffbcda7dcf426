package io.loadsmith.tester.bench;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The cheap gRPC server of {@code sidecar-tester/bench/grpc-vs-h2.sh} (docs/benchmarks.md, "gRPC beside HTTP/2"):
 * grpc-java on grpc-netty-shaded, 127.0.0.1 and a free port, serving {@code scoring.Scorer/Score} of
 * examples/scenarios/grpc/scoring.proto with one constant answer, customer 42's {@code ScoreReply} (its score as
 * data/customers.csv has it), whatever the request; calls run on the transport's thread (direct executor), so
 * that the server costs a fraction of what the reference scoring service does and a 2-core box can answer
 * 10,000 calls a second beside the tester. Prints {@code PORT=n} once it listens; serves until it is killed. Run from the test class path: {@code java -cp ... io.loadsmith.tester.bench.GrpcBenchServer}.
 */
public final class GrpcBenchServer {

    /** ScoreReply {customer_id: 42, score: "0.221657"}: field 1 varint 42, field 2 a string of 8 bytes. */
    static final byte[] REPLY = reply(42, "0.221657");

    private GrpcBenchServer() {
    }

    public static void main(String[] args) throws Exception {
        MethodDescriptor.Marshaller<byte[]> bytes = new MethodDescriptor.Marshaller<>() {
            @Override
            public InputStream stream(byte[] value) {
                return new ByteArrayInputStream(value);
            }

            @Override
            public byte[] parse(InputStream stream) {
                try {
                    return stream.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        MethodDescriptor<byte[], byte[]> score = MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName("scoring.Scorer", "Score"))
                .setRequestMarshaller(bytes).setResponseMarshaller(bytes).build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).directExecutor()
                .addService(ServerServiceDefinition.builder("scoring.Scorer")
                        .addMethod(score, ServerCalls.asyncUnaryCall((request, answer) -> {
                            answer.onNext(REPLY);
                            answer.onCompleted();
                        })).build())
                .build().start();
        System.out.println("PORT=" + server.getPort());
        System.out.flush();
        server.awaitTermination();
    }

    private static byte[] reply(int customerId, String score) {
        byte[] text = score.getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[4 + text.length];
        message[0] = 0x08;                  // field 1, varint
        message[1] = (byte) customerId;     // < 128: one byte
        message[2] = 0x12;                  // field 2, length-delimited
        message[3] = (byte) text.length;
        System.arraycopy(text, 0, message, 4, text.length);
        return message;
    }
}
