package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.tools.ToolProvider;

/**
 * A server library that cannot share the test class path with Jetty 12 (Jetty 9.4, Jetty 11): the build
 * copies its jars to a folder of their own, and the test app's source (a test resource,
 * {@code /NAME/APP.java.txt}) is compiled against them here.
 */
final class CopiedServer {

    private CopiedServer() {
    }

    /** The compiled app's folder followed by the {@code jarCount} jars in {@code jars}. */
    static List<String> classPath(Path jars, int jarCount, String sourceResource, String appClass) {
        File[] files = jars.toFile().listFiles((dir, name) -> name.endsWith(".jar"));
        assertThat(files).as("jars in %s", jars).hasSize(jarCount);
        List<String> classPath = new ArrayList<>(Arrays.stream(files).map(File::getAbsolutePath).sorted().toList());
        classPath.add(0, compile(classPath, sourceResource, appClass).toString());
        return classPath;
    }

    /**
     * The class path of a module under examples/frameworks, from its {@code target} folder: its
     * {@code classes} (when it has any) followed by the jars its build copied to {@code lib}, sorted.
     */
    static List<String> frameworkClassPath(Path moduleTarget) {
        File[] jars = moduleTarget.resolve("lib").toFile().listFiles((dir, name) -> name.endsWith(".jar"));
        assertThat(jars).as("jars in %s/lib (built by examples/frameworks)", moduleTarget).isNotEmpty();
        List<String> classPath = new ArrayList<>();
        Path classes = moduleTarget.resolve("classes");
        if (Files.isDirectory(classes)) {
            classPath.add(classes.toAbsolutePath().toString());
        }
        Arrays.stream(jars).map(File::getAbsolutePath).sorted().forEach(classPath::add);
        return classPath;
    }

    /**
     * The app folder followed by every jar of {@code moduleTarget}/lib, the app's source compiled by
     * {@code javaHome}'s javac (for a library newer than the JDK the build runs on); compiled once per test
     * JVM.
     */
    static synchronized List<String> frameworkClassPathCompiledBy(Path javaHome, Path moduleTarget, String sourceResource,
                                                                  String appClass) {
        List<String> jars = frameworkClassPath(moduleTarget);
        Path compiled = COMPILED.computeIfAbsent(sourceResource, resource -> javac(javaHome, jars, resource, appClass));
        List<String> classPath = new ArrayList<>(jars);
        classPath.add(0, compiled.toString());
        return classPath;
    }

    private static final java.util.Map<String, Path> COMPILED = new java.util.HashMap<>();

    private static Path javac(Path javaHome, List<String> libraries, String sourceResource, String appClass) {
        try {
            Path dir = Files.createTempDirectory(appClass);
            Path source = writeSource(dir, sourceResource, appClass);
            Path log = dir.resolve("javac.log");
            Process javac = new ProcessBuilder(javaHome.resolve("bin").resolve("javac").toString(), "-d", dir.toString(),
                    "-cp", String.join(File.pathSeparator, libraries), source.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            assertThat(javac.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).as("javac %s finished in 120 s", appClass).isTrue();
            assertThat(javac.exitValue()).as("javac %s: %s", appClass, Files.readString(log)).isZero();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path writeSource(Path dir, String sourceResource, String appClass) throws IOException {
        Path source = dir.resolve(appClass + ".java");
        try (InputStream in = CopiedServer.class.getResourceAsStream(sourceResource)) {
            assertThat(in).as("test resource %s", sourceResource).isNotNull();
            Files.writeString(source, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        return source;
    }

    private static Path compile(List<String> libraries, String sourceResource, String appClass) {
        try {
            Path dir = Files.createTempDirectory(appClass);
            Path source = writeSource(dir, sourceResource, appClass);
            int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d", dir.toString(),
                    "-cp", String.join(File.pathSeparator, libraries), source.toString());
            assertThat(status).as("javac %s", appClass).isZero();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
