package io.loadsmith.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import net.bytebuddy.dynamic.loading.ClassInjector;
import net.bytebuddy.jar.asm.ClassReader;

/**
 * Makes the gate visible to every class loader of the host (Spring Boot's, Tomcat's web-app loaders, OSGi
 * with boot delegation, the platform loader of jdk.httpserver): the gate and what it needs (the relocated
 * stall-service packages {@code gate}, {@code clock} and {@code plan}, which use only java.base, nested
 * classes included) are defined in the bootstrap class loader itself, supertypes first, before any other
 * class of the agent touches them. The agent's own classes then resolve them there too (parent first), so
 * the controller the admin API drives and the advice in the host's classes share one {@code StallGate}.
 * The admin API and the controller stay in the agent's class loader: the bootstrap loader cannot see
 * {@code com.sun.net.httpserver} (module jdk.httpserver).
 *
 * <p>The classes are defined, not appended to the bootstrap search path, because appending switches off
 * class-data sharing for every class the bootstrap loader does not load (the JVM's "Sharing is only
 * supported for boot loader classes" warning) and so the host's own AppCDS archive. Three ways, tried in
 * this order:
 * <ol>
 * <li>{@link Way#JDK}: {@code jdk.internal.misc.Unsafe#defineClass}, reached by {@link BootDefine} in a
 *     class loader of its own to which alone {@code Instrumentation#redefineModule} exports the package;</li>
 * <li>{@link Way#BYTE_BUDDY}: Byte Buddy's {@code ClassInjector.UsingUnsafe.ofBootLoader()};</li>
 * <li>{@link Way#APPEND}: the old way, a temporary jar appended to the bootstrap search path, with one
 *     warning saying why the others failed.</li>
 * </ol>
 * The system property {@value #WAY_PROPERTY} ({@code jdk}, {@code byte-buddy} or {@code append}) starts
 * at a later way (for tests and troubleshooting).
 */
final class GateBootstrap {

    /** Entry prefixes (in the shaded jar) of the classes that must live in the bootstrap loader. */
    static final String[] BOOT_PREFIXES = {
        "io/loadsmith/agent/shaded/stall/gate/", "io/loadsmith/agent/shaded/stall/clock/", "io/loadsmith/agent/shaded/stall/plan/"};

    /** System property: the first way to try ({@code jdk}, {@code byte-buddy}, {@code append}). */
    static final String WAY_PROPERTY = "loadsmith.agent.gate-injection";

    /** How the gate classes reached the bootstrap loader. */
    enum Way {
        JDK("jdk"), BYTE_BUDDY("byte-buddy"), APPEND("append");

        final String key;

        Way(String key) {
            this.key = key;
        }
    }

    private GateBootstrap() {
    }

    /** Makes the gate classes resolvable from the bootstrap loader (call once) and returns how. */
    static Way install(Instrumentation instrumentation) throws IOException {
        Path agentJar = agentJar();
        Map<String, byte[]> classes = supertypesFirst(readGateClasses(agentJar));
        Way first = firstWay();
        List<String> failures = new ArrayList<>();
        if (first == Way.JDK) {
            try {
                defineWithJdk(instrumentation, classes);
                return Way.JDK;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                failures.add("jdk.internal.misc.Unsafe: " + rootCause(e));
            }
        }
        if (first != Way.APPEND) {
            try {
                if (!ClassInjector.UsingUnsafe.isAvailable()) {
                    throw new IllegalStateException("not available on this JVM");
                }
                ClassInjector.UsingUnsafe.ofBootLoader().injectRaw(classes);
                return Way.BYTE_BUDDY;
            } catch (RuntimeException | LinkageError e) {
                failures.add("Byte Buddy's ClassInjector.UsingUnsafe: " + rootCause(e));
            }
        }
        appendToBootstrap(instrumentation, agentJar);
        AgentLog.warning("the gate classes could not be defined in the bootstrap loader ("
                + (failures.isEmpty() ? WAY_PROPERTY + "=append" : String.join("; ", failures))
                + "), so they were appended to the bootstrap search path: the JVM now shares (CDS) only the classes of"
                + " the bootstrap loader, and an AppCDS archive given to this service is not used");
        return Way.APPEND;
    }

    private static Way firstWay() {
        String value = System.getProperty(WAY_PROPERTY, Way.JDK.key);
        for (Way way : Way.values()) {
            if (way.key.equals(value)) {
                return way;
            }
        }
        AgentLog.warning("ignoring " + WAY_PROPERTY + "=" + value + " (expected jdk, byte-buddy or append)");
        return Way.JDK;
    }

    /** The gate classes of the agent jar: binary name to class file. */
    static Map<String, byte[]> readGateClasses(Path agentJar) throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (JarFile source = new JarFile(agentJar.toFile())) {
            Enumeration<JarEntry> entries = source.entries();
            while (entries.hasMoreElements()) {
                JarEntry entry = entries.nextElement();
                String name = entry.getName();
                if (entry.isDirectory() || !name.endsWith(".class") || name.endsWith("/package-info.class") || !startsWithAny(name)) {
                    continue;
                }
                try (InputStream in = source.getInputStream(entry)) {
                    classes.put(name.substring(0, name.length() - ".class".length()).replace('/', '.'), in.readAllBytes());
                }
            }
        }
        if (classes.isEmpty()) {
            throw new IOException("no gate classes found in " + agentJar + " (is this the shaded loadsmith-agent.jar?)");
        }
        return classes;
    }

    /**
     * The same classes ordered so that each one's superclass and interfaces among them come before it (a
     * class can only be defined once its supertypes resolve).
     */
    static Map<String, byte[]> supertypesFirst(Map<String, byte[]> classes) {
        Map<String, byte[]> ordered = new LinkedHashMap<>();
        Set<String> visiting = new HashSet<>();
        for (String name : classes.keySet()) {
            addAfterSupertypes(name, classes, ordered, visiting);
        }
        return ordered;
    }

    private static void addAfterSupertypes(String name, Map<String, byte[]> classes, Map<String, byte[]> ordered, Set<String> visiting) {
        if (ordered.containsKey(name) || !classes.containsKey(name) || !visiting.add(name)) {
            return;
        }
        ClassReader reader = new ClassReader(classes.get(name));
        List<String> supertypes = new ArrayList<>();
        if (reader.getSuperName() != null) {
            supertypes.add(reader.getSuperName());
        }
        supertypes.addAll(List.of(reader.getInterfaces()));
        for (String internalName : supertypes) {
            addAfterSupertypes(internalName.replace('/', '.'), classes, ordered, visiting);
        }
        ordered.put(name, classes.get(name));
    }

    private static void defineWithJdk(Instrumentation instrumentation, Map<String, byte[]> classes) throws ReflectiveOperationException, IOException {
        String resource = BootDefine.class.getName().replace('.', '/') + ".class";
        byte[] definerBytes;
        try (InputStream in = GateBootstrap.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("no " + resource + " in the agent jar");
            }
            definerBytes = in.readAllBytes();
        }
        Class<?> definer = new IsolatedLoader().define(BootDefine.class.getName(), definerBytes);
        Module javaBase = Object.class.getModule();
        instrumentation.redefineModule(javaBase, Set.of(), Map.of("jdk.internal.misc", Set.of(definer.getModule())), Map.of(), Set.of(), Map.of());
        java.lang.reflect.Method define = definer.getMethod("define", String.class, byte[].class);
        for (Map.Entry<String, byte[]> entry : classes.entrySet()) {
            define.invoke(null, entry.getKey(), entry.getValue());
        }
    }

    /** A loader of one class, with the bootstrap loader as parent, so its unnamed module is its own. */
    private static final class IsolatedLoader extends ClassLoader {
        IsolatedLoader() {
            super("loadsmith-boot-define", null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /** Appends the gate classes to the bootstrap search path, through a temporary jar. */
    private static void appendToBootstrap(Instrumentation instrumentation, Path agentJar) throws IOException {
        Path bootJar = Files.createTempFile("loadsmith-gate-", ".jar");
        bootJar.toFile().deleteOnExit();
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
            }
        }
        instrumentation.appendToBootstrapClassLoaderSearch(new JarFile(bootJar.toFile()));
    }

    private static String rootCause(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.toString();
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
