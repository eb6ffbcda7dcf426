package io.loadsmith.agent;

import io.loadsmith.stall.observe.JfrMemory;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pause observer's {@link JfrMemory.Sizes} in the agent: {@link JfrOptions}, loaded at the first read (the
 * observer's first JFR start) in a class loader of its own to whose module alone {@code jdk.jfr.internal} is
 * exported, so that sizing JFR's buffers does not start the platform MBean server (some 480 classes, 1.5 MB of
 * metaspace, in a service that had none). A failure here is the observer's to log (it then starts JFR with the
 * JDK's sizes).
 */
final class JfrOptionsLink implements JfrMemory.Sizes {

    private final Instrumentation instrumentation;
    private Method read;
    private Method set;

    private JfrOptionsLink(Instrumentation instrumentation) {
        this.instrumentation = instrumentation;
    }

    /** The link, or empty when this JVM has no jdk.jfr module (the observer then runs without JFR). */
    static Optional<JfrMemory.Sizes> of(Instrumentation instrumentation) {
        return ModuleLayer.boot().findModule("jdk.jfr").isPresent()
                ? Optional.of(new JfrOptionsLink(instrumentation)) : Optional.empty();
    }

    @Override
    public Map<String, Long> read() throws Exception {
        long[] values = (long[]) invoke(methods()[0]);
        Map<String, Long> sizes = new LinkedHashMap<>();
        sizes.put("Global buffer count", values[0]);
        sizes.put("Global buffer size", values[1] / 1024);
        sizes.put("Thread buffer size", values[2] / 1024);
        sizes.put("Memory size", values[3] / 1024);
        return sizes;
    }

    @Override
    public void set(long globalBufferCount, long globalBufferSizeKb, long threadBufferSizeKb, long memorySizeKb) throws Exception {
        invoke(methods()[1], globalBufferCount, globalBufferSizeKb * 1024, threadBufferSizeKb * 1024, memorySizeKb * 1024);
    }

    private static Object invoke(Method method, Object... arguments) throws Exception {
        try {
            return method.invoke(null, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private synchronized Method[] methods() throws IOException, ReflectiveOperationException {
        if (read == null) {
            String resource = JfrOptions.class.getName().replace('.', '/') + ".class";
            byte[] bytes;
            try (InputStream in = JfrOptionsLink.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IOException("no " + resource + " in the agent jar");
                }
                bytes = in.readAllBytes();
            }
            Class<?> options = new IsolatedLoader().define(JfrOptions.class.getName(), bytes);
            Module jfr = ModuleLayer.boot().findModule("jdk.jfr").orElseThrow();
            instrumentation.redefineModule(jfr, Set.of(), Map.of("jdk.jfr.internal", Set.of(options.getModule())), Map.of(), Set.of(), Map.of());
            set = options.getMethod("set", long.class, long.class, long.class, long.class);
            read = options.getMethod("read");
        }
        return new Method[] {read, set};
    }

    /** A loader of one class, with the bootstrap loader as parent, so its unnamed module is its own. */
    private static final class IsolatedLoader extends ClassLoader {
        IsolatedLoader() {
            super("loadsmith-jfr-options", null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
