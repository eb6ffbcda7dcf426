package io.loadsmith.examples.spring.grpc;

import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;

/**
 * A gRPC service on Spring Boot 4's gRPC server starter (grpc-java on its Netty), without generated code: one
 * unary method, {@code loadsmith.Work/Work}, whose request is the milliseconds of work to do (decimal ASCII)
 * and whose answer is "ok". It listens on 127.0.0.1 and a free port, prints {@code PORT=n} once it does, and
 * exits when its standard input closes.
 */
@SpringBootApplication
public class GrpcApp {

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

    static final MethodDescriptor<byte[], byte[]> WORK = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName("loadsmith.Work", "Work"))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();

    /** The service, as a bean: the starter serves every {@link BindableService} of the context. */
    @Bean
    BindableService work() {
        return () -> ServerServiceDefinition.builder("loadsmith.Work")
                .addMethod(WORK, ServerCalls.asyncUnaryCall((request, answer) -> {
                    sleep(Long.parseLong(new String(request, StandardCharsets.US_ASCII)));
                    answer.onNext("ok".getBytes(StandardCharsets.US_ASCII));
                    answer.onCompleted();
                }))
                .build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static void main(String[] args) throws IOException {
        SpringApplication application = new SpringApplication(GrpcApp.class);
        application.setDefaultProperties(Map.of("spring.grpc.server.port", "0",
                "spring.grpc.server.address", "127.0.0.1", "spring.main.banner-mode", "off"));
        application.addListeners((ApplicationListener<GrpcServerStartedEvent>) started -> {
            System.out.println("PORT=" + started.getPort());
            System.out.flush();
        });
        application.run(args);
        while (System.in.read() >= 0) {
            // serve until the parent closes standard input
        }
        System.exit(0);
    }
}
