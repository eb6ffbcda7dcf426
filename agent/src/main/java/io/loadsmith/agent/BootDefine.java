package io.loadsmith.agent;

import java.lang.reflect.Method;

/**
 * Defines a class in the bootstrap class loader through {@code jdk.internal.misc.Unsafe#defineClass}.
 * {@link GateBootstrap} loads this class on its own, in a class loader of its own (so into an unnamed
 * module that nothing else shares), and exports {@code jdk.internal.misc} to that module alone: the host's
 * classes gain no access to it. Not for use from the agent's own class loader (there the package is not
 * exported and every call fails).
 */
public final class BootDefine {

    private static volatile Object unsafe;
    private static volatile Method defineClass;

    private BootDefine() {
    }

    /** Defines {@code bytes} as the class {@code binaryName} in the bootstrap loader; its supertypes must already resolve there. */
    public static Class<?> define(String binaryName, byte[] bytes) throws ReflectiveOperationException {
        if (defineClass == null) {
            Class<?> unsafeType = Class.forName("jdk.internal.misc.Unsafe");
            unsafe = unsafeType.getMethod("getUnsafe").invoke(null);
            defineClass = unsafeType.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                    ClassLoader.class, java.security.ProtectionDomain.class);
        }
        return (Class<?>) defineClass.invoke(unsafe, binaryName, bytes, 0, bytes.length, null, null);
    }
}
