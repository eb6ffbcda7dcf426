package io.loadsmith.agent;

import io.loadsmith.agent.target.Target;
import io.loadsmith.agent.target.Targets;
import io.loadsmith.stall.admin.TokenFile;
import io.loadsmith.stall.gate.ReplicaHeader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.lang.instrument.Instrumentation;

/**
 * The one start path of {@code premain} and {@code agentmain}: options and token on the thread that
 * loads the agent, then, on a daemon thread of its own, the gate in the bootstrap loader, the
 * instrumentation and the admin API. Never throws into the host: any failure leaves the agent inert
 * with one log line saying why (also in the system property {@code loadsmith.agent.error}, which the
 * attach launcher reads).
 */
final class AgentRuntime {

    /** System property: the admin API's base URL once the agent runs. */
    static final String ADMIN_PROPERTY = "loadsmith.agent.admin";
    /**
     * System property: set (to how it was loaded) by the first loadsmith agent of this JVM, whatever loader
     * or jar copy loaded it; a later load sees it and changes nothing.
     */
    static final String LOADED_PROPERTY = "loadsmith.agent.loaded";
    /** System property: why the agent is inert. */
    static final String ERROR_PROPERTY = "loadsmith.agent.error";
    /** The gate's class name (relocated in the shaded jar, like every reference to it). */
    static final String GATE_CLASS = "io.loadsmith.stall.gate.StallGate";
    /** The daemon thread that defines the gate, loads Byte Buddy and starts the admin API. */
    static final String START_THREAD = "loadsmith-agent-start";
    /** The group of {@link #START_THREAD}, and so of every thread it starts (the admin API's among them). */
    static final ThreadGroup AGENT_THREADS = new ThreadGroup("loadsmith-agent");

    private AgentRuntime() {
    }

    static synchronized void start(String args, Instrumentation instrumentation, String how) {
        try {
            Object first = System.getProperties().putIfAbsent(LOADED_PROPERTY, how);
            if (first != null) {
                AgentLog.warning(alreadyAttached(first.toString(), System.getProperty(ADMIN_PROPERTY)) + "; the load via " + how
                        + " changed nothing");
                return;
            }
            System.clearProperty(ERROR_PROPERTY);
            AgentOptions options;
            try {
                options = AgentOptions.parse(args);
            } catch (IllegalArgumentException e) {
                inert("bad agent options: " + e.getMessage());
                return;
            }
            AgentLog.threshold(options.logLevel());
            String token;
            try {
                token = resolveToken(options);
            } catch (IOException | RuntimeException e) {
                inert("token: " + e.getMessage());
                return;
            }
            Thread thread = new Thread(AGENT_THREADS, new FinishStart(options, token, instrumentation, how), START_THREAD);
            thread.setDaemon(true);
            thread.start();
        } catch (Throwable t) {
            inert("failed to start: " + t);
            AgentLog.error("failed to start", t);
        }
    }

    /** {@link #finishStart} as a task (a class, not a lambda: the host's thread links no call site for it). */
    private record FinishStart(AgentOptions options, String token, Instrumentation instrumentation, String how) implements Runnable {
        @Override
        public void run() {
            finishStart(options, token, instrumentation, how);
        }
    }

    /**
     * The start itself, off the host's thread: the gate classes into the bootstrap loader, Byte Buddy's
     * transformer (then every loaded target class is gated), then the admin API. The admin API listens,
     * {@link #ADMIN_PROPERTY} is set and "admin API on" is logged only after the gates are in place, so no
     * stall can be armed before requests are held.
     */
    private static void finishStart(AgentOptions options, String token, Instrumentation instrumentation, String how) {
        try {
            long t0 = System.nanoTime();
            GateBootstrap.Way way = GateBootstrap.install(instrumentation);
            Class<?> gateClass = Class.forName(GATE_CLASS, true, null);
            List<Target> targets = Targets.enabled(options);
            MatchRegistry registry = new MatchRegistry(targets, () -> JdkHttpServers.serviceRunsOne(AGENT_THREADS));
            long tGate = System.nanoTime();
            ReplicaHeader.replica(options.replica());
            NameFilter filter = Instrumenter.install(instrumentation, targets, registry, gateClass, options.traceHeader());
            long t1 = System.nanoTime();
            String address;
            try {
                address = AdminLink.start(options, token, registry, instrumentation);
            } catch (IOException e) {
                Instrumenter.uninstall(instrumentation, filter);
                inert("the admin API cannot listen on " + options.adminHost() + ":" + options.adminPort() + " (" + e
                        + "); the service runs on untouched, every gated class was restored. Choose another port with"
                        + " admin=HOST:PORT");
                return;
            }
            long t2 = System.nanoTime();
            AgentLog.debug("start-up on " + START_THREAD + ": gate in the bootstrap loader (" + way.key + ") " + (tGate - t0) / 1_000_000
                    + " ms, instrumentation " + (t1 - tGate) / 1_000_000 + " ms, admin API " + (t2 - t1) / 1_000_000 + " ms");
            System.setProperty(ADMIN_PROPERTY, address);
            List<String> names = new ArrayList<>();
            targets.forEach(t -> names.add(t.name()));
            AgentLog.info("admin API on " + address + " (loaded via " + how + "; targets " + String.join(", ", names)
                    + (token == null ? "; no token" : "; bearer token required") + ")");
            Instrumenter.lookAgain(instrumentation, filter);
        } catch (Throwable t) {
            inert("failed to start: " + t);
            AgentLog.error("failed to start", t);
        }
    }

    /** What a second load says: "already attached (via -javaagent); admin API at http://127.0.0.1:7070". */
    static String alreadyAttached(String firstHow, String address) {
        return "already attached (via " + firstHow + "); admin API at "
                + (address == null ? "(not listening yet: the first agent logs \"admin API on\" when it does)" : address);
    }

    private static void inert(String why) {
        try {
            System.setProperty(ERROR_PROPERTY, why);
        } catch (RuntimeException ignored) {
            // a security manager: the log line still says it
        }
        AgentLog.error("inert: " + why, null);
    }

    /** The token to require, or null for none. */
    static String resolveToken(AgentOptions options) throws IOException {
        if (options.token() != null) {
            return options.token();
        }
        Path file = options.tokenFile();
        if (file == null) {
            return null;
        }
        if (options.randomToken()) {
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            writePrivate(file, token + "\n");
            AgentLog.info("admin token written to " + file.toAbsolutePath() + " (mode 0600)");
            return token;
        }
        try {
            return TokenFile.read(file);
        } catch (IllegalArgumentException e) {
            throw new IOException("token-file " + e.getMessage(), e);
        }
    }

    private static void writePrivate(Path file, String content) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
        if (parent != null && !Files.isDirectory(parent)) {
            if (posix) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(parent);
            }
        }
        if (posix) {
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException e) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
        }
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }
}
