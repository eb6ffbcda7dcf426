package io.loadsmith.tester.profile;

import java.lang.management.ManagementFactory;

/**
 * Pauses at known moments, for {@link GcLogReaderIT}: allocates for a while (young collections), then calls
 * System.gc() three times 150 ms apart, printing the JVM's uptime (ms, from its start like the log's uptime)
 * just before and just after each call: {@code gc BEFORE_MS AFTER_MS}.
 */
public final class GcPausesApp {

    public static void main(String[] args) throws InterruptedException {
        Object[] keep = new Object[64];
        for (int i = 0; i < 200_000; i++) {
            keep[i & 63] = new byte[1024 + (i & 1023)];
        }
        for (int i = 0; i < 3; i++) {
            Thread.sleep(150);
            long before = ManagementFactory.getRuntimeMXBean().getUptime();
            System.gc();
            long after = ManagementFactory.getRuntimeMXBean().getUptime();
            System.out.println("gc " + before + " " + after);
        }
        System.out.println(keep.length);
    }
}
