package io.loadsmith.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.lang.instrument.Instrumentation;

/**
 * Puts the gate on the bootstrap class path, so that every class loader of the host (Spring Boot's,
 * Tomcat's web-app loaders, OSGi with boot delegation, the platform loader of jdk.httpserver) resolves
 * the same, one {@code StallGate} class. The gate and what it needs (the relocated stall-service
 * packages {@code gate}, {@code clock} and {@code plan}, which use only java.base) are copied from the
 * agent jar into a temporary jar that is appended to the bootstrap search path; the agent's own classes
 * then resolve them there too (parent first), so the controller the admin API drives and the advice in
 * the host's classes share one gate. The admin API and the controller stay in the agent's class loader:
 * the bootstrap loader cannot see {@code com.sun.net.httpserver} (module jdk.httpserver).
 */
final class GateBootstrap {

    /** Entry prefixes (in the shaded jar) of the classes that must live in the bootstrap loader. */
    static final String[] BOOT_PREFIXES = {
        "io/loadsmith/agent/shaded/stall/gate/", "io/loadsmith/agent/shaded/stall/clock/", "io/loadsmith/agent/shaded/stall/plan/"};

    private GateBootstrap() {
    }

    /** Appends the gate classes to the bootstrap search path (once) and returns the jar it wrote. */
    static Path appendToBootstrap(Instrumentation instrumentation) throws IOException {
        Path agentJar = agentJar();
        Path bootJar = Files.createTempFile("loadsmith-gate-", ".jar");
        bootJar.toFile().deleteOnExit();
        int copied = 0;
        try (JarFile source = new JarFile(agentJar.toFile());
             OutputStream file = Files.newOutputStream(bootJar);
             JarOutputStream out = new JarOutputStream(file)) {
            Enumeration<JarEntry> entries = source.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                if (entry.isDirectory() || !startsWithAny(entry.getName())) {
                    continue;
                }
                out.putNextEntry(new JarEntry(entry.getName()));
                try (InputStream in = source.getInputStream(entry)) {
                    in.transferTo(out);
                }
                out.closeEntry();
                copied++;
            }
        }
        if (copied == 0) {
            throw new IOException("no gate classes found in " + agentJar + " (is this the shaded loadsmith-agent.jar?)");
        }
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(bootJar.toFile()));
        return bootJar;
    }

    private static boolean startsWithAny(String name) {
        for (String prefix : BOOT_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    static Path agentJar() throws IOException {
        try {
            return Paths.get(GateBootstrap.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot locate the agent jar: " + e, e);
        }
    }
}
