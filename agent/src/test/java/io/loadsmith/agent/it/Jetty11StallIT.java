package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.tools.ToolProvider;

/**
 * The jetty9 target (Jetty 9.4-11) on Jetty 11. Jetty 11 cannot share the test class path with Jetty 12,
 * so the build copies its jars to target/jetty11 and this test compiles its app against them.
 */
class Jetty11StallIT extends AbstractServerStallIT {
    private static final Path JARS = Paths.get(System.getProperty("loadsmith.jetty11", "target/jetty11"));

    @Override protected String mainClass() { return "Jetty11App"; }
    @Override protected List<String> libraries() { return List.of("/org/slf4j/"); }
    @Override protected String target() { return "jetty9"; }
    @Override protected String expectedGate() { return "org.eclipse.jetty.server.HttpChannel#sendResponse"; }

    @Override
    protected List<String> extraClassPath() {
        File[] jars = JARS.toFile().listFiles((dir, name) -> name.endsWith(".jar"));
        assertThat(jars).as("Jetty 11 jars in %s", JARS).hasSize(5);
        List<String> classPath = new ArrayList<>(Arrays.stream(jars).map(File::getAbsolutePath).toList());
        classPath.add(0, compileApp(classPath).toString());
        return classPath;
    }

    private static Path compileApp(List<String> jetty11) {
        try {
            Path dir = Files.createTempDirectory("jetty11-app");
            Path source = dir.resolve("Jetty11App.java");
            try (InputStream in = Jetty11StallIT.class.getResourceAsStream("/jetty11/Jetty11App.java.txt")) {
                Files.writeString(source, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            int status = ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "17", "-d", dir.toString(),
                    "-cp", String.join(File.pathSeparator, jetty11), source.toString());
            assertThat(status).as("javac Jetty11App").isZero();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
