package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * The stall contract in a Spring Boot 4 service on its gRPC server starter (a {@code BindableService} bean;
 * examples/frameworks/spring-boot-grpc, whose class path holds Boot's own versions: grpc-java 1.84.1 on the
 * unshaded grpc-netty, never the test's).
 */
class SpringGrpcStallIT extends AbstractGrpcStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.spring-boot-grpc",
            "../examples/frameworks/spring-boot-grpc/target"));

    @Override protected String mainClass() { return "io.loadsmith.examples.spring.grpc.GrpcApp"; }
    @Override protected List<String> classPath() { return CopiedServer.frameworkClassPath(MODULE); }
    @Override protected long startTimeoutMillis() { return 120_000; }
    @Override protected String expectedGate() { return "io.grpc.internal.ServerImpl$ServerTransportListenerImpl#startWrappedCall"; }
}
