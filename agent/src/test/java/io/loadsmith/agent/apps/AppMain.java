package io.loadsmith.agent.apps;

import java.io.IOException;
import java.net.URI;

/**
 * What every test app shares: it serves {@code GET /fast} ("ok") and {@code GET /slow?ms=N} ("ok" after
 * N ms of work), prints {@code PORT=n} once it listens, and exits when its standard input closes (so
 * it never outlives the test that started it).
 */
final class AppMain {

    private AppMain() {
    }

    static void ready(int port) {
        System.out.println("PORT=" + port);
        System.out.flush();
    }

    static void untilStdinCloses() {
        try {
            while (System.in.read() >= 0) {
                // keep serving
            }
        } catch (IOException ignored) {
            // parent gone
        }
        System.exit(0);
    }

    /** Milliseconds asked for by {@code ?ms=N}, 0 without it. */
    static long workMillis(URI uri) {
        String query = uri.getRawQuery();
        if (query != null && query.startsWith("ms=")) {
            return Long.parseLong(query.substring(3));
        }
        return 0;
    }

    static long workMillis(String query) {
        return query != null && query.startsWith("ms=") ? Long.parseLong(query.substring(3)) : 0;
    }

    static void work(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
