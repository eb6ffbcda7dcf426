package io.loadsmith.tester.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The share of the host's CPU time that is idle (Linux {@code /proc/stat}; elsewhere unknown). */
public final class CpuIdle {

    private static final Path STAT = Path.of("/proc/stat");

    private CpuIdle() {
    }

    /** The share of CPU time that was idle over {@code millis}, or -1 when it cannot be read. */
    static double idleShare(long millis) throws InterruptedException {
        long[] before = read();
        Thread.sleep(millis);
        long[] after = read();
        if (before == null || after == null || after[0] == before[0]) {
            return -1;
        }
        return (after[1] - before[1]) / (double) (after[0] - before[0]);
    }

    /** {total, idle+iowait} jiffies of the "cpu" line, or null. */
    private static long[] read() {
        try {
            for (String line : Files.readAllLines(STAT)) {
                if (line.startsWith("cpu ")) {
                    String[] parts = line.trim().split("\\s+");
                    long total = 0;
                    for (int i = 1; i < parts.length; i++) {
                        total += Long.parseLong(parts[i]);
                    }
                    long idle = Long.parseLong(parts[4]) + (parts.length > 5 ? Long.parseLong(parts[5]) : 0);
                    return new long[] {total, idle};
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }
}
