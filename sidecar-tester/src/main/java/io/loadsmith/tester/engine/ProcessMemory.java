package io.loadsmith.tester.engine;

import io.loadsmith.tester.result.RunResult;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tester process's memory, for a run's {@code cost}: its peak resident set so far (Linux's {@code VmHWM},
 * which counts what a container's memory limit counts of it: every page it touched, the JVM's own and the
 * mapped files) and the JVM's heap and non-heap as its memory bean says (docs/benchmarks.md, "Sizing a sidecar").
 */
final class ProcessMemory {

    private static final Path STATUS = Path.of("/proc/self/status");
    private static final double MIB = 1024.0 * 1024.0;

    private ProcessMemory() {
    }

    /** The memory now, as a cost with no CPU; a figure the system does not give is null. */
    static RunResult.Cost now() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        return new RunResult.Cost(-1, -1, -1.0, peakResidentMb(), round(memory.getHeapMemoryUsage().getUsed() / MIB),
                round(memory.getHeapMemoryUsage().getCommitted() / MIB),
                round(memory.getNonHeapMemoryUsage().getCommitted() / MIB));
    }

    /** {@code VmHWM} of /proc/self/status in MiB; null off Linux or when it cannot be read. */
    static Double peakResidentMb() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmHWM:")) {
                    return round(Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no /proc: unknown
        }
        return null;
    }

    private static double round(double mb) {
        return Math.round(mb * 10) / 10.0;
    }
}
