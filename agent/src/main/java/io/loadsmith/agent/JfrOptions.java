package io.loadsmith.agent;

import java.lang.reflect.Method;

/**
 * Reads and sets JFR's buffer sizes through {@code jdk.jfr.internal.Options}, what the {@code JFR.configure}
 * diagnostic command calls, without the platform MBean server that command is reached through.
 * {@link JfrOptionsLink} loads this class on its own, in a class loader of its own, and exports
 * {@code jdk.jfr.internal} to that loader's module alone: the host's classes gain no access to it. Not for use
 * from the agent's own class loader (there the package is not exported and every call fails).
 */
public final class JfrOptions {

    private static final String OPTIONS = "jdk.jfr.internal.Options";

    private JfrOptions() {
    }

    /** JFR's global buffer count, then its global buffer, thread buffer and memory sizes, in bytes. */
    public static long[] read() throws ReflectiveOperationException {
        Class<?> options = Class.forName(OPTIONS);
        return new long[] {
            (long) options.getMethod("getGlobalBufferCount").invoke(null),
            (long) options.getMethod("getGlobalBufferSize").invoke(null),
            (long) options.getMethod("getThreadBufferSize").invoke(null),
            (long) options.getMethod("getMemorySize").invoke(null)};
    }

    /** Sets them (sizes in bytes), in the order {@code JFR.configure} does. */
    public static void set(long globalBufferCount, long globalBufferSizeBytes, long threadBufferSizeBytes, long memorySizeBytes)
            throws ReflectiveOperationException {
        Class<?> options = Class.forName(OPTIONS);
        call(options, "setGlobalBufferCount", globalBufferCount);
        call(options, "setGlobalBufferSize", globalBufferSizeBytes);
        call(options, "setThreadBufferSize", threadBufferSizeBytes);
        call(options, "setMemorySize", memorySizeBytes);
    }

    private static void call(Class<?> options, String name, long value) throws ReflectiveOperationException {
        Method setter = options.getMethod(name, long.class);
        setter.invoke(null, value);
    }
}
