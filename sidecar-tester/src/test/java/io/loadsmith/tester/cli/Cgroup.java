package io.loadsmith.tester.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A cgroup with a memory limit, as a container's: v2 ({@code /sys/fs/cgroup/cgroup.controllers}) or v1 (the
 * memory hierarchy, nested in this process's own group there), the Java twin of the bench's
 * {@code cgroup_create} (sidecar-tester/bench/lib.sh). {@link #wrap} runs a command inside it (a {@code sh}
 * joins the group, then execs the command); {@link #peakBytes()} and {@link #oomKills()} read it afterwards
 * (v1 {@code memory.max_usage_in_bytes} and {@code memory.oom_control}'s oom_kill, v2 {@code memory.peak} and
 * {@code memory.events}' oom_kill); {@link #close()} kills what is left in it and removes it. Needs root and a
 * writable cgroup fs: {@link #unavailable()} says why not.
 */
final class Cgroup implements AutoCloseable {

    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    private final boolean v2;
    private final Path dir;

    private Cgroup(boolean v2, Path dir) {
        this.v2 = v2;
        this.dir = dir;
    }

    /** Why no group can be made here (no cgroup fs, not root, not writable), or empty when one can. */
    static Optional<String> unavailable() {
        if (!read(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*")) {
            return Optional.of("not root (user " + System.getProperty("user.name") + "): a cgroup needs root");
        }
        Path base = v2() ? ROOT : v1Memory().orElse(null);
        if (base == null) {
            return Optional.of("no cgroup fs: neither v2 at /sys/fs/cgroup nor v1's memory hierarchy is mounted");
        }
        if (v2() && !read(ROOT.resolve("cgroup.controllers")).contains("memory")) {
            return Optional.of("cgroup v2 without the memory controller");
        }
        if (!Files.isWritable(base)) {
            return Optional.of(base + " is not writable (a read-only cgroup fs?)");
        }
        return Optional.empty();
    }

    /** Makes group {@code name} with a memory limit of {@code limitBytes} (no swap). */
    static Cgroup create(String name, long limitBytes) throws IOException {
        Cgroup group;
        if (v2()) {
            Path parent = ROOT.resolve(ownPath("").substring(1));
            if (parent.equals(ROOT) || !read(parent.resolve("cgroup.subtree_control")).contains("memory")) {
                parent = ROOT; // a v2 group with processes cannot give controllers to children: from the root
                Files.writeString(ROOT.resolve("cgroup.subtree_control"), "+memory");
            }
            group = new Cgroup(true, parent.resolve(name));
        } else {
            Path memory = v1Memory().orElseThrow(() -> new IOException("no v1 memory hierarchy"));
            group = new Cgroup(false, memory.resolve(ownPath("memory").substring(1)).resolve(name));
        }
        Files.createDirectory(group.dir);
        try {
            if (group.v2) {
                Files.writeString(group.dir.resolve("memory.max"), Long.toString(limitBytes));
                if (Files.exists(group.dir.resolve("memory.swap.max"))) {
                    Files.writeString(group.dir.resolve("memory.swap.max"), "0");
                }
            } else {
                Files.writeString(group.dir.resolve("memory.limit_in_bytes"), Long.toString(limitBytes));
                Path memsw = group.dir.resolve("memory.memsw.limit_in_bytes");
                if (Files.exists(memsw)) {
                    Files.writeString(memsw, Long.toString(limitBytes));
                }
            }
        } catch (IOException | RuntimeException e) {
            group.close();
            throw e;
        }
        return group;
    }

    /** {@code command} run inside this group: {@code sh -c 'echo $$ > PROCS; exec "$@"' command...}. */
    List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("sh", "-c", "echo $$ > \"$0\" || exit 125; exec \"$@\"",
                procs().toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The group's peak memory, page cache it touched included (v1 memory.max_usage_in_bytes, v2 memory.peak). */
    long peakBytes() throws IOException {
        return Long.parseLong(read(dir.resolve(v2 ? "memory.peak" : "memory.max_usage_in_bytes")).strip());
    }

    /** The processes of this group the kernel killed for memory (v1 memory.oom_control, v2 memory.events). */
    long oomKills() throws IOException {
        for (String line : read(dir.resolve(v2 ? "memory.events" : "memory.oom_control")).split("\n")) {
            if (line.startsWith("oom_kill ")) {
                return Long.parseLong(line.substring("oom_kill ".length()).strip());
            }
        }
        throw new IOException(dir + ": no oom_kill count (a kernel older than 4.13?)");
    }

    Path dir() {
        return dir;
    }

    /** Kills what is left in the group, then removes it (retried for a few seconds while its processes exit). */
    @Override
    public void close() {
        for (int attempt = 0; attempt < 50 && Files.isDirectory(dir); attempt++) {
            for (String pid : read(procs()).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            try {
                Files.deleteIfExists(dir);
            } catch (IOException e) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private Path procs() {
        return dir.resolve(v2 ? "cgroup.procs" : "tasks");
    }

    private static boolean v2() {
        return Files.exists(ROOT.resolve("cgroup.controllers"));
    }

    /** The mount point of v1's memory hierarchy, from /proc/mounts. */
    private static Optional<Path> v1Memory() {
        for (String line : read(Path.of("/proc/mounts")).split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 3 && f[2].equals("cgroup") && Set.of(f[3].split(",")).contains("memory")) {
                return Optional.of(Path.of(f[1]));
            }
        }
        return Optional.empty();
    }

    /** This process's group path in CONTROLLER's v1 hierarchy, or in v2's for "" (from /proc/self/cgroup). */
    private static String ownPath(String controller) {
        for (String line : read(Path.of("/proc/self/cgroup")).split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && (controller.isEmpty() ? f[0].equals("0")
                    : new LinkedHashSet<>(List.of(f[1].split(","))).contains(controller))) {
                return f[2];
            }
        }
        return "/";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
