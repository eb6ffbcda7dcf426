package io.loadsmith.agent.it;

import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/**
 * A test app in a second JVM: its class path is the test classes plus only the jars whose path holds one
 * of the given fragments (the app's server library), never the agent's own unshaded dependencies. Its
 * output is collected line by line; closing it closes the app's standard input (the app then exits) and
 * kills it if it lingers.
 */
final class ChildJvm implements AutoCloseable {

    static final Path AGENT_JAR = Paths.get(System.getProperty("loadsmith.agent.jar", "target/loadsmith-agent.jar"));
    static final Path JDK25 = Paths.get("/usr/lib/jvm/temurin-25-jdk-amd64");

    private static final Pattern ADMIN = Pattern.compile("admin API on (http://[^ ]+)");

    private final Process process;
    private final List<String> stdout = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();

    private ChildJvm(Process process) {
        this.process = process;
        pump(process.getInputStream(), stdout, "out");
        pump(process.getErrorStream(), stderr, "err");
    }

    static Path javaOf(Path javaHome) {
        return javaHome.resolve("bin").resolve("java");
    }

    static Path currentJavaHome() {
        return Paths.get(System.getProperty("java.home"));
    }

    /** Starts {@code mainClass} with {@code jvmArgs}, on a class path of the test classes and the matching jars. */
    static ChildJvm start(Path javaHome, List<String> jvmArgs, List<String> libraryFragments, String mainClass) throws IOException {
        return start(javaHome, jvmArgs, libraryFragments, List.of(), mainClass);
    }

    /** As above, with {@code extraEntries} (jars outside the test class path) added to the class path. */
    static ChildJvm start(Path javaHome, List<String> jvmArgs, List<String> libraryFragments, List<String> extraEntries,
                          String mainClass) throws IOException {
        List<String> classPath = new ArrayList<>(classPath(libraryFragments));
        classPath.addAll(extraEntries);
        return startOnClassPath(javaHome, jvmArgs, classPath, mainClass);
    }

    /** Starts {@code mainClass} with {@code jvmArgs} on exactly {@code classPath}. */
    static ChildJvm startOnClassPath(Path javaHome, List<String> jvmArgs, List<String> classPath, String mainClass) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaOf(javaHome).toString());
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(mainClass);
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        return new ChildJvm(builder.start());
    }

    /** The test-classes folder plus the jars of the test class path whose path contains a fragment. */
    static List<String> classPath(List<String> fragments) {
        String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> result = new ArrayList<>();
        for (String entry : full.split(File.pathSeparator)) {
            String normalized = entry.replace('\\', '/');
            if (normalized.endsWith("/test-classes") || normalized.endsWith("/test-classes/")) {
                result.add(entry);
                continue;
            }
            for (String fragment : fragments) {
                if (normalized.contains(fragment)) {
                    result.add(entry);
                    break;
                }
            }
        }
        return result;
    }

    private static void pump(java.io.InputStream in, List<String> sink, String name) {
        Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    sink.add(line);
                }
            } catch (IOException ignored) {
                // the child is gone
            }
        }, "child-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    long pid() {
        return process.pid();
    }

    /** The port the app printed ({@code PORT=n}), waiting up to 30 s. */
    int appPort() {
        return appPort(30_000);
    }

    /** The port the app printed ({@code PORT=n}), waiting up to {@code timeoutMillis}. */
    int appPort(long timeoutMillis) {
        String line = awaitLine(stdout, Pattern.compile("PORT=(\\d+)"), timeoutMillis, false);
        return Integer.parseInt(line);
    }

    /**
     * The admin API base URL the agent logged, waiting up to 30 s: on stderr (the JDK's logging), or on
     * stdout where the app routes the JDK's logging into its own (Spring Boot's Logback console). A host
     * whose logging drops records while it starts can lose the line (Spring Boot's Logback system suppresses
     * every record until it is configured):
     * then the agent's {@code loadsmith.agent.admin} system property, read through the Attach API as the
     * launcher reads it, gives the same URL.
     */
    String adminUrl() {
        List<String> lines = new ConcatenatedLines(stderr, stdout);
        long[] nextAttachNanos = {System.nanoTime() + 2_000_000_000L};
        try {
            return await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .failFast(() -> firstMatch(lines, ADMIN) == null && (!process.isAlive()
                            || stderr.stream().anyMatch(l -> l.contains("loadsmith agent: inert"))))
                    .until(() -> {
                        String logged = firstMatch(lines, ADMIN);
                        if (logged != null || System.nanoTime() - nextAttachNanos[0] < 0) {
                            return logged;
                        }
                        nextAttachNanos[0] = System.nanoTime() + 500_000_000L;
                        return adminProperty();
                    }, Objects::nonNull);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new AssertionError("no line matching " + ADMIN + " and no loadsmith.agent.admin property (alive: "
                    + process.isAlive() + ")\n" + output());
        }
    }

    /** The child's {@code loadsmith.agent.admin} system property, through the Attach API; null if not set (yet). */
    private String adminProperty() {
        try {
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(pid()));
            try {
                return vm.getSystemProperties().getProperty("loadsmith.agent.admin");
            } finally {
                vm.detach();
            }
        } catch (Exception e) {
            return null; // not attachable yet: the next poll tries again
        }
    }

    /** Waits until a stdout line matches, returns the first group (or the line). */
    String awaitStdout(String regex, long timeoutMillis) {
        return awaitLine(stdout, Pattern.compile(regex), timeoutMillis, false);
    }

    /** Waits until a stderr line matches, returns the first group (or the line). */
    String awaitStderr(String regex, long timeoutMillis) {
        return awaitLine(stderr, Pattern.compile(regex), timeoutMillis, false);
    }

    private String awaitLine(List<String> lines, Pattern pattern, long timeoutMillis, boolean stopWhenInert) {
        try {
            return await().atMost(Duration.ofMillis(timeoutMillis)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20))
                    .failFast(() -> firstMatch(lines, pattern) == null && (!process.isAlive()
                            || stopWhenInert && stderr.stream().anyMatch(l -> l.contains("loadsmith agent: inert"))))
                    .until(() -> firstMatch(lines, pattern), Objects::nonNull);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new AssertionError("no line matching " + pattern + " (alive: " + process.isAlive() + ")\n" + output());
        }
    }

    /** The first group of the first line matching pattern (or the line), or null. */
    private static String firstMatch(List<String> lines, Pattern pattern) {
        for (String line : lines) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return m.groupCount() > 0 ? m.group(1) : line;
            }
        }
        return null;
    }

    /** Two line lists read as one, the first's lines first (a read-only view: both keep growing). */
    private static final class ConcatenatedLines extends java.util.AbstractList<String> {
        private final List<String> first;
        private final List<String> second;

        ConcatenatedLines(List<String> first, List<String> second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public String get(int index) {
            return index < first.size() ? first.get(index) : second.get(index - first.size());
        }

        @Override
        public int size() {
            return first.size() + second.size();
        }

        @Override
        public java.util.Iterator<String> iterator() {
            List<String> snapshot = new ArrayList<>(first);
            snapshot.addAll(second);
            return snapshot.iterator();
        }
    }

    String output() {
        return "--- stdout\n" + String.join("\n", stdout) + "\n--- stderr\n" + String.join("\n", stderr);
    }

    List<String> stdoutLines() {
        return List.copyOf(stdout);
    }

    List<String> stderrLines() {
        return List.copyOf(stderr);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Closes the app's standard input and waits up to {@code timeoutSeconds} for it to exit; returns its exit code. */
    int closeAndAwaitExit(long timeoutSeconds) throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the app did not exit in " + timeoutSeconds + " s\n" + output());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed
        }
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Runs the launcher ({@code java -jar loadsmith-agent.jar ARGS}) to completion. */
    static Result launcher(Path javaHome, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaOf(javaHome).toString(), "-jar", AGENT_JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Path out = Files.createTempFile("launcher", ".out");
        Path err = Files.createTempFile("launcher", ".err");
        builder.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("launcher did not finish in 60 s");
        }
        Result result = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return result;
    }

    record Result(int exitCode, String stdout, String stderr) {
    }
}
