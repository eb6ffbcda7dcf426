package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The results folder's disk fills up during {@code loadsmith run}: the CLI in a child JVM, in a mount
 * namespace of its own ({@code unshare --mount}), writes to a 256 KiB tmpfs a simulated run whose
 * {@code requests.bin} needs about 740 KB. The run stops, the error names the file, nothing is left under
 * a final name, and the exit code is 2. Skipped, saying why, where mounting is refused (not root, no
 * {@code unshare}).
 */
class DiskFullIT {

    @TempDir
    Path dir;

    @Test
    void a_full_disk_names_the_file_stops_the_run_leaves_no_file_half_written_and_exits_2() throws Exception {
        Path mount = Files.createDirectory(dir.resolve("tiny"));
        assumeMountable(mount);
        Path scenario = dir.resolve("big.yaml");
        Files.writeString(scenario, """
                name: big
                target:
                  simulate: {servers: 4, service_time: 1ms}
                load: {model: open, arrivals: constant, rate: 2000, duration: 10s, grace: 1s, seed: 1}
                """);
        Path listing = dir.resolve("listing.txt");
        Path console = dir.resolve("console.txt");
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "sh", "-c",
                "mount -t tmpfs -o size=256k none \"$0\" || exit 97; \"$@\"; code=$?; "
                        + "ls -1A \"$0/r\" > \"$LISTING\"; exit $code", mount.toString()));
        command.addAll(ChildCli.command("run", scenario.toString(), "--out", mount.resolve("r").toString(),
                "--progress", "none"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile());
        builder.environment().put("LISTING", listing.toString());
        Process child = builder.start();
        try {
            assertThat(child.waitFor(120, TimeUnit.SECONDS)).as("exited").isTrue();
        } finally {
            child.destroyForcibly();
        }

        String printed = Files.readString(console);
        assertThat(child.exitValue()).as(printed).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(printed).contains("loadsmith: error: " + mount.resolve("r").resolve("requests.bin")
                + ": No space left on device");
        assertThat(Files.readAllLines(listing)).as("left in the results folder; console: %s", printed).isEmpty();
    }

    /** Aborts the test (skipped, with the reason) where this process may not mount a tmpfs in a namespace. */
    private static void assumeMountable(Path mount) throws Exception {
        Process probe;
        try {
            probe = new ProcessBuilder("unshare", "--mount", "sh", "-c",
                    "mount -t tmpfs -o size=256k none \"$0\"", mount.toString()).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            Assumptions.abort("no unshare to mount a tiny tmpfs: " + e.getMessage());
            return;
        }
        String said = new String(probe.getInputStream().readAllBytes()).strip();
        boolean exited = probe.waitFor(30, TimeUnit.SECONDS);
        Assumptions.assumeTrue(exited && probe.exitValue() == 0,
                () -> "mounting a tmpfs in a mount namespace is refused here (" + said + "): not root?");
    }
}
