package io.loadsmith.agent;

import io.loadsmith.stall.control.Freezer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The agent's {@link Freezer}: {@code freeze.JnaFreeze} (two kernel timers that send the process
 * {@code SIGSTOP} at a window's start and {@code SIGCONT} at its end) through JNA. JNA cannot be relocated
 * (its native library binds to its package names), so the whole JNA jar ships inside the agent jar and is loaded, with {@code JnaFreeze}, in a
 * class loader of its own whose parent is the platform loader: an app's own JNA, any version, never meets it.
 * Nothing is loaded before the first freeze plan is armed; a failure to load says why, once, and every
 * later freeze arm is refused with the same reason.
 */
final class NativeFreezer implements Freezer {

    private static final String JNA_JAR = "META-INF/loadsmith/jna.jar";
    private static final String IMPLEMENTATION = "io.loadsmith.agent.freeze.JnaFreeze";

    private final String staticRefusal;
    private UnaryOperator<long[]> freeze; // guarded by this
    private String refusal; // guarded by this; set once loading failed

    NativeFreezer() {
        this.staticRefusal = staticRefusal(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /** A freezer that freezes with {@code loaded} (tests: a freeze without JNA). */
    NativeFreezer(UnaryOperator<long[]> loaded) {
        this.staticRefusal = null;
        this.freeze = loaded;
    }

    /** Why this OS or CPU cannot freeze, or null: Linux on x86-64 or AArch64 only. */
    static String staticRefusal(String os, String arch) {
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "freeze needs Linux (SIGSTOP and a CLOCK_MONOTONIC timer whose signal is SIGCONT); this is " + os;
        }
        if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
            return "freeze knows the signal numbers of x86-64 and AArch64 Linux only; this is " + arch;
        }
        return null;
    }

    @Override
    public synchronized Optional<String> unavailable() {
        if (staticRefusal != null) {
            return Optional.of(staticRefusal);
        }
        if (freeze == null && refusal == null) {
            load();
        }
        return Optional.ofNullable(refusal);
    }

    @Override
    public synchronized String status() {
        if (staticRefusal != null) {
            return staticRefusal;
        }
        if (refusal != null) {
            return refusal;
        }
        return freeze == null ? "loads on the first freeze plan" : "available";
    }

    @Override
    public FreezeEdges freeze(long startNanos, long endNanos) {
        UnaryOperator<long[]> loaded;
        synchronized (this) {
            loaded = freeze;
        }
        if (loaded == null) {
            throw new IllegalStateException(unavailable().orElse("the freezer is not loaded"));
        }
        long[] edges;
        try {
            edges = loaded.apply(new long[] {startNanos, endNanos});
        } catch (RuntimeException e) {
            // the controller drops the rest of the plan and /health keeps the last failure; the log says it once
            AgentLog.errorOnce("freeze: " + e.getMessage(), "freeze failed, the rest of its plan is dropped: "
                    + e.getMessage(), null);
            throw e;
        }
        return new FreezeEdges(edges[0], edges[1], edges[2], edges[3]);
    }

    @SuppressWarnings("unchecked")
    private void load() {
        try {
            Path jar = Files.createTempFile("loadsmith-jna-", ".jar");
            jar.toFile().deleteOnExit();
            try (InputStream in = resource(JNA_JAR)) {
                Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
            }
            ClassLoader loader = new IsolatedLoader(jar.toUri().toURL());
            freeze = (UnaryOperator<long[]>) Class.forName(IMPLEMENTATION, true, loader).getConstructor().newInstance();
            AgentLog.info("freeze: ready (JNA from the agent jar, in a class loader of its own)");
        } catch (Throwable t) { // an UnsatisfiedLinkError, a refused native access, an IOException...
            refusal = "freeze cannot load its native calls: " + rootCause(t);
            AgentLog.warning(refusal);
        }
    }

    /** The innermost cause: JNA's refusals come wrapped (an ExceptionInInitializerError around the JDK's). */
    static String rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }

    private static InputStream resource(String name) throws IOException {
        InputStream in = NativeFreezer.class.getClassLoader().getResourceAsStream(name);
        if (in == null) {
            throw new IOException(name + " is missing from the agent jar");
        }
        return in;
    }

    /** JNA's jar, and {@code freeze.*} of the agent jar, over the platform loader: nothing of the app's class path. */
    private static final class IsolatedLoader extends URLClassLoader {

        IsolatedLoader(URL jnaJar) {
            super("loadsmith-freeze", new URL[] {jnaJar}, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.startsWith("io.loadsmith.agent.freeze.")) {
                return super.findClass(name);
            }
            try (InputStream in = resource(name.replace('.', '/') + ".class")) {
                byte[] bytes = in.readAllBytes();
                return defineClass(name, bytes, 0, bytes.length);
            } catch (IOException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }
}
