package io.loadsmith.agent;

import io.loadsmith.agent.target.Gate;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * A test class woven by {@link GateWeaver} as the agent weaves a target, defined in a class loader of its
 * own (child first for that one class, so the JVM verifies the woven bytes as it would a host's class).
 */
public final class WovenClasses {

    private WovenClasses() {
    }

    /** A fresh copy of {@code type} with {@code gates} woven in (fails when none matched). */
    public static Class<?> woven(Class<?> type, List<Gate> gates, boolean traceHeader) throws IOException {
        byte[] woven = GateWeaver.weave(classFile(type), gates, traceHeader);
        if (woven == null) {
            throw new IllegalArgumentException("no method of " + type.getName() + " matched");
        }
        return new OneClassLoader(type, woven).loadWoven();
    }

    /** The class file of {@code type}, as its loader has it. */
    public static byte[] classFile(Class<?> type) throws IOException {
        String resource = type.getName().replace('.', '/') + ".class";
        try (InputStream in = type.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no class file for " + type.getName());
            }
            return in.readAllBytes();
        }
    }

    private static final class OneClassLoader extends ClassLoader {
        private final String name;
        private final byte[] classFile;

        OneClassLoader(Class<?> type, byte[] classFile) {
            super(type.getClassLoader());
            this.name = type.getName();
            this.classFile = classFile;
        }

        Class<?> loadWoven() {
            return defineClass(name, classFile, 0, classFile.length);
        }
    }
}
