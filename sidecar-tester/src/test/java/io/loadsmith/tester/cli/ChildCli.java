package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The CLI ({@link Main}) in a child JVM on the test's class path, its output (both streams) in a file. */
final class ChildCli {

    private ChildCli() {
    }

    /** Starts {@code loadsmith args...} in {@code workDir} (null: this one) with LOADSMITH_DEBUG=1. */
    static Process start(Path console, Path workDir, String... args) throws IOException {
        List<String> command = command(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(console.toFile());
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        builder.environment().put("LOADSMITH_DEBUG", "1"); // a failure prints its stack trace
        return builder.start();
    }

    /** The command line that runs {@code loadsmith args...} on the test's class path. */
    static List<String> command(String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
                .replace(' ', File.pathSeparatorChar);
        List<String> command = new ArrayList<>(List.of(java, "-cp", classpath, Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** Sends SIGINT (Ctrl-C) to {@code child}. */
    static void interrupt(Process child) throws IOException, InterruptedException {
        int kill = new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start().waitFor();
        assertThat(kill).isZero();
    }
}
