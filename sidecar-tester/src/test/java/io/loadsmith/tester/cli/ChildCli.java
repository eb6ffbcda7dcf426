package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The CLI ({@link Main}) in a child JVM on the test's class path, its output (both streams) in a file. */
final class ChildCli {

    private static final int SIGINT = 2;

    private ChildCli() {
    }

    /** Starts {@code loadsmith args...} in {@code workDir} (null: this one) with LOADSMITH_DEBUG=1. */
    static Process start(Path console, Path workDir, String... args) throws IOException {
        return start(List.of(), console, workDir, args);
    }

    /** {@link #start(Path, Path, String...)} with the java command run by {@code prefix} (e.g. {@code unshare ...}). */
    static Process start(List<String> prefix, Path console, Path workDir, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(command(args));
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

    /**
     * Sends SIGINT (Ctrl-C) to {@code child}. Fails at once, saying why, when this JVM ignores SIGINT: its
     * children then ignore it too (a shell without job control, running the build in the background, sets
     * that), and the child would run on as if the signal never came.
     */
    static void interrupt(Process child) throws IOException, InterruptedException {
        assertThat(ignoresSigint()).as("this JVM ignores SIGINT, and so does the child (SigIgn in /proc/self/status):"
                + " run the build in the foreground, or from a shell with job control (set -m)").isFalse();
        int kill = new ProcessBuilder("kill", "-INT", Long.toString(child.pid())).inheritIO().start().waitFor();
        assertThat(kill).isZero();
    }

    /** Kills {@code child} and every process it started (a demo's or an experiment's service), for a finally block. */
    static void destroyTree(Process child) {
        child.descendants().forEach(ProcessHandle::destroyForcibly);
        child.destroyForcibly();
    }

    private static boolean ignoresSigint() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16);
                return (ignored & (1L << (SIGINT - 1))) != 0;
            }
        }
        return false;
    }
}
