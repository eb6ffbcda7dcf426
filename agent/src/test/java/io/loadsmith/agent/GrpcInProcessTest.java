package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.loadsmith.agent.apps.GrpcApp;
import io.loadsmith.agent.apps.GrpcInProcessCalls;
import io.loadsmith.agent.target.Gate;
import io.loadsmith.agent.target.Target;
import io.loadsmith.agent.target.grpc.GrpcTarget;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.gate.GateWindow;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.plan.StallKind;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * The {@code grpc} target on grpc-java's in-process transport, in this JVM: grpc-java's classes are loaded
 * afresh by a loader that weaves the target's gates into them as the agent would ({@link GateWeaver}), and
 * a window of the global gate is opened by hand. A unary call and a client stream sent into it are held
 * before the service sees either (the stream's first message included), and answered once it closes.
 */
class GrpcInProcessTest {

    private static final Target GRPC = GrpcTarget.target();

    @Test
    void a_stall_holds_unary_and_streaming_in_process_calls_before_the_service_sees_them() throws Exception {
        try (GatingLoader loader = new GatingLoader()) {
            Object calls = loader.loadClass(GrpcInProcessCalls.class.getName()).getDeclaredConstructor().newInstance();
            @SuppressWarnings("unchecked")
            Function<String, CompletableFuture<String>> send = (Function<String, CompletableFuture<String>>) calls;
            IntSupplier seenByService = (IntSupplier) calls;
            try (AutoCloseable closing = (AutoCloseable) calls) {
                assertThat(send.apply("unary").get(10, TimeUnit.SECONDS)).as("before the stall").isEqualTo("ok");
                assertThat(loader.woven).as("the classes gated, as the agent gates them")
                        .containsExactlyInAnyOrder(gatedTypes().toArray(new String[0]));
                assertThat(GRPC.guardAccepts(loader)).isTrue();

                GateWindow window = StallGate.global().open(Clock.system(),
                        System.nanoTime() + Duration.ofMinutes(1).toNanos(), StallKind.BLOCK);
                CompletableFuture<String> unary;
                CompletableFuture<String> stream;
                try {
                    unary = send.apply("unary");
                    stream = send.apply("stream");
                    await().atMost(Duration.ofSeconds(10)).until(() -> window.held() == 2);
                    assertThat(seenByService.getAsInt()).as("calls the service saw: the one before the stall").isEqualTo(1);
                    assertThat(unary).isNotDone();
                    assertThat(stream).isNotDone();
                } finally {
                    window.close();
                }
                assertThat(unary.get(10, TimeUnit.SECONDS)).isEqualTo("ok");
                assertThat(stream.get(10, TimeUnit.SECONDS)).as("messages the stream's service counted").isEqualTo("1");
                assertThat(seenByService.getAsInt()).isEqualTo(3);
            }
        }
    }

    private static Set<String> gatedTypes() {
        Set<String> types = ConcurrentHashMap.newKeySet();
        for (Gate gate : GRPC.gates()) {
            types.add(gate.typeName());
        }
        return types;
    }

    /**
     * Loads grpc-java (every {@code io.grpc} jar of the test class path) and the test apps child first, weaving the {@code grpc} target's gates into their classes; the gate itself, and every
     * other class, comes from the test's loader, so the woven code and the test share one {@link StallGate}.
     */
    private static final class GatingLoader extends URLClassLoader {
        final Set<String> woven = ConcurrentHashMap.newKeySet();

        GatingLoader() {
            super(grpcAndTestClasses(), GrpcInProcessTest.class.getClassLoader());
        }

        private static URL[] grpcAndTestClasses() {
            List<URL> urls = new ArrayList<>();
            for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
                String path = entry.replace('\\', '/');
                if (path.contains("/io/grpc/") || path.endsWith("/test-classes") || path.endsWith("/test-classes/")) {
                    try {
                        urls.add(Paths.get(entry).toUri().toURL());
                    } catch (MalformedURLException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
            return urls.toArray(new URL[0]);
        }

        private static boolean childFirst(String name) {
            return name.startsWith("io.grpc.") || name.startsWith(GrpcApp.class.getPackageName() + ".");
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!childFirst(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    loaded = defineWoven(name);
                }
                if (resolve) {
                    resolveClass(loaded);
                }
                return loaded;
            }
        }

        private Class<?> defineWoven(String name) throws ClassNotFoundException {
            byte[] classFile;
            try (InputStream in = getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                classFile = in.readAllBytes();
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
            List<Gate> gates = GRPC.gates().stream().filter(gate -> gate.typeName().equals(name)).toList();
            byte[] gated = gates.isEmpty() ? null : GateWeaver.weave(classFile, gates, false);
            if (gated != null) {
                woven.add(name);
                classFile = gated;
            }
            return defineClass(name, classFile, 0, classFile.length);
        }
    }
}
