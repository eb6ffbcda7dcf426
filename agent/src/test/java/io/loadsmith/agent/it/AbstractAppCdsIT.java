package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The agent keeps the host's class-data sharing: a Jetty 12 service that brings its own AppCDS archive
 * (made by a first run without the agent, {@code -XX:ArchiveClassesAtExit}) and is then started with
 * {@code -XX:SharedArchiveFile} and the agent still loads its application classes from that archive,
 * the JVM never warns that the bootstrap class path was appended, and a stall still holds requests (the
 * stall contract of {@link AbstractServerStallIT}, so the gate works from the classes the agent defined
 * in the bootstrap loader). CDS takes classes from jars only, so the app's classes are packed in a jar.
 * With the gate appended to the bootstrap path instead ({@code -Dloadsmith.agent.gate-injection=append}),
 * both checks fail on JDK 25; on JDK 17 only the warning does (there this app's classes still came from
 * its dynamic archive).
 */
abstract class AbstractAppCdsIT extends AbstractServerStallIT {

    static final String APP_CLASS = "io.loadsmith.agent.apps.Jetty12App";
    static final String APPENDED_WARNING = "Sharing is only supported for boot loader classes because bootstrap classpath has been appended";

    private Path workDir;
    private List<String> classPath;
    private Path archive;
    private Path classLoadLog;

    @Override protected String mainClass() { return APP_CLASS; }
    @Override protected List<String> libraries() { return List.of("/org/eclipse/jetty/", "/org/slf4j/"); }
    @Override protected String target() { return "jetty12"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.internal.HttpChannelState$ChannelResponse#write"; }

    @Override
    protected List<String> classPath() {
        prepareArchive();
        return classPath;
    }

    @Override
    protected List<String> extraJvmArgs() {
        prepareArchive();
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info:file=" + classLoadLog);
    }

    @Test
    void the_app_class_loads_from_the_service_s_own_archive_with_the_agent() {
        String line = APP_CLASS + " source: shared objects file";
        await().alias("a line '" + line + "' in " + classLoadLog).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> Files.readAllLines(classLoadLog).stream().anyMatch(l -> l.contains(line)));
    }

    @Test
    void the_jvm_never_warns_that_the_bootstrap_class_path_was_appended() {
        assertThat(app.output()).doesNotContain(APPENDED_WARNING).doesNotContain("appended to the bootstrap search path");
    }

    /** Once: the app jar, its class path, and the archive written by a first run without the agent. */
    private void prepareArchive() {
        if (archive != null) {
            return;
        }
        try {
            workDir = Files.createTempDirectory("appcds");
            classPath = new ArrayList<>();
            classPath.add(appJar(workDir.resolve("app.jar")).toString());
            ChildJvm.classPath(libraries()).stream().filter(entry -> entry.endsWith(".jar")).forEach(classPath::add);
            classLoadLog = workDir.resolve("class-load.log");
            Path dumped = workDir.resolve("app.jsa");
            List<String> dumpArgs = new ArrayList<>(baseJvmArgs());
            dumpArgs.add("-XX:ArchiveClassesAtExit=" + dumped);
            try (ChildJvm first = ChildJvm.startOnClassPath(javaHome(), dumpArgs, classPath, APP_CLASS)) {
                int firstPort = first.appPort();
                for (int i = 0; i < 20; i++) {
                    assertThat(RawHttp.get(firstPort, "/fast").status()).isEqualTo(200);
                    assertThat(RawHttp.get(firstPort, "/slow?ms=1").status()).isEqualTo(200);
                }
                assertThat(first.closeAndAwaitExit(120)).as("exit code of the archiving run\n%s", first.output()).isZero();
                assertThat(dumped).as("archive written by the first run\n%s", first.output()).isNotEmptyFile();
            }
            archive = dumped;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The test apps' classes ({@code io/loadsmith/agent/apps/}) in one jar. */
    private static Path appJar(Path jar) throws IOException {
        Path testClasses = Paths.get(ChildJvm.classPath(List.of()).get(0));
        Path apps = testClasses.resolve("io/loadsmith/agent/apps");
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file);
             Stream<Path> classes = Files.list(apps)) {
            for (Path type : classes.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                out.putNextEntry(new JarEntry(testClasses.relativize(type).toString().replace('\\', '/')));
                Files.copy(type, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
