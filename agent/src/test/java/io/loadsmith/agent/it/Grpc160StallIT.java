package io.loadsmith.agent.it;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stall contract on grpc-java 1.60.0 (grpc-netty-shaded, December 2023), with the agent from its start: the
 * test app {@link io.loadsmith.agent.apps.GrpcApp} on examples/frameworks/grpc-java-1.60's class path, never
 * the test's 1.85.
 */
class Grpc160StallIT extends AbstractGrpcStallIT {
    static final Path MODULE = Paths.get(System.getProperty("loadsmith.grpc-java-1.60",
            "../examples/frameworks/grpc-java-1.60/target"));

    @Override
    protected List<String> classPath() {
        List<String> classPath = new ArrayList<>(ChildJvm.classPath(List.of()));
        classPath.addAll(CopiedServer.frameworkClassPath(MODULE));
        assertThat(classPath).map(entry -> Path.of(entry).getFileName().toString())
                .filteredOn(name -> name.startsWith("grpc-")).isNotEmpty()
                .allMatch(name -> name.endsWith("-1.60.0.jar"), "a grpc-java 1.60.0 jar");
        return classPath;
    }

    @Override protected String expectedGate() { return "io.grpc.internal.ServerImpl$ServerTransportListenerImpl#startWrappedCall"; }
}
