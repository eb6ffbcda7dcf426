package io.loadsmith.stall.bench;

import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Locale;

/**
 * Round trips of {@code GET /clock} on one keep-alive connection to a real admin server on loopback:
 * what bounds the clock-offset uncertainty a tester gets. Prints p50, p99 and max in microseconds, and
 * whether {@code sun.net.httpserver.nodelay} was on. Arguments: {@code [probes]}.
 */
public final class ClockProbeBenchmark {

    private ClockProbeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int probes = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        try (StallController controller = new StallController(Clock.system(), new StallGate());
             AdminServer admin = AdminServer.start(AdminConfig.builder().port(0).build(), controller)) {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest request = HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + admin.address().getPort() + "/clock")).build();
            for (int i = 0; i < 500; i++) {
                http.send(request, HttpResponse.BodyHandlers.ofString());
            }
            long[] roundTripNanos = new long[probes];
            for (int i = 0; i < probes; i++) {
                long sentNanos = System.nanoTime();
                http.send(request, HttpResponse.BodyHandlers.ofString());
                roundTripNanos[i] = System.nanoTime() - sentNanos;
            }
            Arrays.sort(roundTripNanos);
            System.out.printf(Locale.ROOT, "GET /clock round trip over %d probes (nodelay=%s): p50 %.1f us, p99 %.1f us, "
                            + "max %.1f us, min %.1f us%n", probes, System.getProperty("sun.net.httpserver.nodelay"),
                    roundTripNanos[probes / 2] / 1e3, roundTripNanos[(int) Math.ceil(0.99 * probes) - 1] / 1e3,
                    roundTripNanos[probes - 1] / 1e3, roundTripNanos[0] / 1e3);
        }
    }
}
