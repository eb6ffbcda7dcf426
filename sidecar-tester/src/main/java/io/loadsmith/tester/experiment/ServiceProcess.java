package io.loadsmith.tester.experiment;

import io.loadsmith.tester.agentclient.AdminClient;
import io.loadsmith.tester.agentclient.AdminException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference scored service in a child JVM with the loadsmith agent attached, on free loopback ports:
 * {@code java -javaagent:loadsmith-agent.jar=admin=127.0.0.1:0 -jar scoring-service.jar --port 0 ...}. Both
 * ports are the kernel's choice at bind time and read from the child's log (a port probed free beforehand
 * can be taken by another process's connection before the child binds it). {@link #start} returns once the
 * service and the agent printed their addresses and the agent's admin API answers {@code /health}. {@link #close} stops it (and a shutdown hook does, if the JVM exits first), so no
 * process is left behind. The child's output goes to a log file.
 */
public final class ServiceProcess implements AutoCloseable {

    private static volatile CountDownLatch shutdownHold;
    private static volatile long shutdownHoldMillis;

    /** The service's address, and its gRPC port's when it was given {@code --grpc-port}. */
    private static final Pattern LISTENING = Pattern.compile("scoring-service listening on (http://\\S+)(?: and (grpc://\\S+))?");
    private static final Pattern ADMIN_LISTENING = Pattern.compile("loadsmith agent: admin API on (http://\\S+)");

    private final Process process;
    private final URI url;
    private final URI grpcUrl;
    private final AdminClient admin;
    private final Thread hook;
    private final Path log;

    private ServiceProcess(Process process, URI url, URI grpcUrl, AdminClient admin, Thread hook, Path log) {
        this.process = process;
        this.url = url;
        this.grpcUrl = grpcUrl;
        this.admin = admin;
        this.hook = hook;
        this.log = log;
    }

    /** The jars the service needs: a distribution's, or the source tree's build output. */
    public record Jars(Path agent, Path service) {
        /** {@code agent/target/loadsmith-agent.jar} and {@code examples/scoring-service/target/scoring-service.jar}. */
        public static Jars under(Path root) {
            return new Jars(root.resolve("agent/target/loadsmith-agent.jar"),
                    root.resolve("examples/scoring-service/target/scoring-service.jar"));
        }

        /** In an unpacked distribution: {@code agent/loadsmith-agent.jar} and {@code service/scoring-service.jar}. */
        public static Jars inDistribution(Path home) {
            return new Jars(home.resolve("agent/loadsmith-agent.jar"), home.resolve("service/scoring-service.jar"));
        }

        /** {@link #under(Path)}, with the agent jar taken from {@code LOADSMITH_AGENT_JAR} when that is set. */
        public static Jars of(Path root) {
            return under(root).withAgentFromEnvironment();
        }

        /**
         * The jars of the distribution this CLI runs from ({@link #distributionHome}), else of the source tree
         * above it; {@code LOADSMITH_AGENT_JAR} names another agent jar in both cases.
         */
        public static Jars find() {
            return distributionHome().map(Jars::inDistribution).map(Jars::withAgentFromEnvironment)
                    .orElseGet(() -> of(root()));
        }

        private Jars withAgentFromEnvironment() {
            String other = System.getenv("LOADSMITH_AGENT_JAR");
            return other == null || other.isBlank() ? this : new Jars(Path.of(other), service);
        }

        /** What is missing, as a message naming the build that makes it; null when both jars are there. */
        public String missing() {
            List<String> missing = new ArrayList<>();
            if (!Files.isRegularFile(agent)) {
                missing.add(agent.toString());
            }
            if (!Files.isRegularFile(service)) {
                missing.add(service.toString());
            }
            return missing.isEmpty() ? null : "missing " + String.join(" and ", missing)
                    + ": in the source tree, build them with ./mvnw -B -q -DskipTests package -pl agent,examples/scoring-service -am"
                    + "; in a distribution, unpack it again";
        }
    }

    /** The project's root: the first folder from {@code start} upwards that holds {@code agent/} and {@code examples/}. */
    public static Path findRoot(Path start) {
        for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("agent")) && Files.isDirectory(dir.resolve("examples"))
                    && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the loadsmith project folder above " + start);
    }

    /**
     * The unpacked distribution this CLI runs from: the folder above {@code lib/loadsmith.jar} when it holds
     * {@code agent/loadsmith-agent.jar}; empty when the CLI runs from the source tree.
     */
    public static Optional<Path> distributionHome() {
        try {
            Path jar = Path.of(ServiceProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path lib = jar.getParent();
            if (lib == null || lib.getParent() == null || !lib.getFileName().toString().equals("lib")) {
                return Optional.empty();
            }
            Path home = lib.getParent();
            return Files.isRegularFile(home.resolve("agent/loadsmith-agent.jar")) ? Optional.of(home) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The project's root above this build's jar (or classes folder), else above the working folder. */
    public static Path root() {
        try {
            return findRoot(Path.of(ServiceProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            return findRoot(Path.of(""));
        }
    }

    /**
     * Starts the service with the agent.
     *
     * @param threads        the service's request threads
     * @param serviceArgs    more options for the service (e.g. {@code --db PATH})
     * @param log            where the child's output goes
     * @param timeoutSeconds how long to wait for it to be ready
     */
    public static ServiceProcess start(Jars jars, int threads, List<String> serviceArgs, Path log, long timeoutSeconds)
            throws IOException {
        return start(jars, threads, serviceArgs, log, timeoutSeconds, "");
    }

    /**
     * {@link #start(Jars, int, List, Path, long)} with more agent options after its {@code admin=} (e.g.
     * {@code trace-header=on,replica=scored-0}; empty for none).
     */
    public static ServiceProcess start(Jars jars, int threads, List<String> serviceArgs, Path log, long timeoutSeconds,
                                       String agentOptions) throws IOException {
        String missing = jars.missing();
        if (missing != null) {
            throw new IOException(missing);
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.add("-Dsun.net.httpserver.nodelay=true");
        command.add("-javaagent:" + jars.agent().toAbsolutePath() + "=admin=127.0.0.1:0"
                + (agentOptions.isEmpty() ? "" : "," + agentOptions));
        command.add("-jar");
        command.add(jars.service().toAbsolutePath().toString());
        command.add("--port");
        command.add("0");
        command.add("--threads");
        command.add(Integer.toString(threads));
        command.addAll(serviceArgs);
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread hook = new Thread(() -> {
            awaitShutdownHold();
            destroy(process);
        }, "loadsmith-stop-service");
        Runtime.getRuntime().addShutdownHook(hook);
        CompletableFuture<URI> address = new CompletableFuture<>();
        CompletableFuture<URI> grpcAddress = new CompletableFuture<>();
        CompletableFuture<URI> adminAddress = new CompletableFuture<>();
        Thread pump = new Thread(() -> pump(process, log, address, grpcAddress, adminAddress), "loadsmith-service-log");
        pump.setDaemon(true);
        pump.start();
        try {
            URI url = address.get(timeoutSeconds, TimeUnit.SECONDS);
            // the agent logs its address in premain, before the service's main prints its own
            URI adminUrl = adminAddress.getNow(null);
            if (adminUrl == null) {
                throw new IOException("the agent printed no \"admin API on\" line before the service started");
            }
            URI grpcUrl = grpcAddress.getNow(null); // completed with the address, from the same line
            if (serviceArgs.contains("--grpc-port") && grpcUrl == null) {
                throw new IOException("the service was given --grpc-port but printed no grpc:// address");
            }
            AdminClient admin = AdminClient.of(adminUrl, null);
            waitForAdmin(admin, timeoutSeconds);
            return new ServiceProcess(process, url, grpcUrl, admin, hook, log);
        } catch (TimeoutException | ExecutionException | IOException e) {
            stop(process, hook);
            throw new IOException("the scoring service did not start within " + timeoutSeconds + " s"
                    + (process.isAlive() ? "" : " (it exited with " + exitValue(process) + ")")
                    + "; see " + log + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        } catch (InterruptedException e) {
            stop(process, hook);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the scoring service started", e);
        }
    }

    private static void waitForAdmin(AdminClient admin, long timeoutSeconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            try {
                admin.health();
                return;
            } catch (AdminException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static void pump(Process process, Path log, CompletableFuture<URI> address, CompletableFuture<URI> grpcAddress,
                             CompletableFuture<URI> adminAddress) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             var out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.newLine();
                out.flush();
                Matcher listening = LISTENING.matcher(line);
                if (!address.isDone() && listening.find()) {
                    if (listening.group(2) != null) {
                        grpcAddress.complete(URI.create(listening.group(2)));
                    }
                    address.complete(URI.create(listening.group(1)));
                }
                complete(adminAddress, ADMIN_LISTENING, line);
            }
        } catch (IOException e) {
            address.completeExceptionally(e);
            adminAddress.completeExceptionally(e);
        } finally {
            address.completeExceptionally(new IOException("the service's output ended before it printed its address"));
            adminAddress.completeExceptionally(new IOException(
                    "the service's output ended before its agent printed the admin API's address"));
        }
    }

    private static void complete(CompletableFuture<URI> address, Pattern printed, String line) {
        Matcher m = printed.matcher(line);
        if (!address.isDone() && m.find()) {
            address.complete(URI.create(m.group(1)));
        }
    }

    private static String exitValue(Process process) {
        try {
            return Integer.toString(process.exitValue());
        } catch (IllegalThreadStateException e) {
            return "?";
        }
    }

    /** The service's base URL, e.g. {@code http://127.0.0.1:41234}. */
    public URI url() {
        return url;
    }

    /** The service's gRPC address ({@code grpc://127.0.0.1:PORT}), or null when it was not given {@code --grpc-port}. */
    public URI grpcUrl() {
        return grpcUrl;
    }

    /** The agent's admin API. */
    public AdminClient admin() {
        return admin;
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** The child's output. */
    public Path log() {
        return log;
    }

    /** The service's process and its descendants, as they are now (alive or not). */
    public List<ProcessHandle> processes() {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(process.toHandle());
        process.descendants().forEach(all::add);
        return all;
    }

    /** Stops the service and waits for it to exit. Idempotent. */
    @Override
    public void close() {
        stop(process, hook);
    }

    private static void stop(Process process, Thread hook) {
        destroy(process);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down: the hook runs anyway
        }
    }

    /**
     * On a JVM shutdown (Ctrl-C), a service still running is stopped only once {@code done} is counted down
     * (the tester has finished with it: the run's stalls fetched, the files written), or after
     * {@code maxMillis}. Without it, the service is stopped at once.
     */
    public static void holdOnShutdownUntil(CountDownLatch done, long maxMillis) {
        shutdownHold = done;
        shutdownHoldMillis = maxMillis;
    }

    private static void awaitShutdownHold() {
        CountDownLatch done = shutdownHold;
        if (done == null) {
            return;
        }
        try {
            done.await(shutdownHoldMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void destroy(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
