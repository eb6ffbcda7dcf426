package io.loadsmith.agent.apps;

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
 * A grpc-java service on grpc-netty-shaded with the server's default executor, without generated code: one
 * unary method, {@link #WORK}, whose request is the milliseconds of work to do (decimal ASCII, as
 * {@code /slow?ms=N} asks) and whose answer is "ok".
 */
public final class GrpcApp {

    /** Raw bytes both ways: no protobuf needed. */
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
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

    /** {@code loadsmith.Work/Work}: work the milliseconds the request names, then answer "ok". */
    public static final MethodDescriptor<byte[], byte[]> WORK = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("loadsmith.Work", "Work"))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();

    private GrpcApp() {
    }

    public static void main(String[] args) throws Exception {
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(service())
                .build()
                .start();
        AppMain.ready(server.getPort());
        AppMain.untilStdinCloses();
    }

    /** The service of {@link #WORK}, whose work runs on the thread that calls it (a server executor's). */
    public static ServerServiceDefinition service() {
        return ServerServiceDefinition.builder("loadsmith.Work")
                .addMethod(WORK, ServerCalls.asyncUnaryCall((request, answer) -> {
                    AppMain.work(Long.parseLong(new String(request, StandardCharsets.US_ASCII)));
                    answer.onNext("ok".getBytes(StandardCharsets.US_ASCII));
                    answer.onCompleted();
                }))
                .build();
    }
}
