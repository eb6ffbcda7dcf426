package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.clock.Clock;

import java.io.IOException;
import java.time.Instant;

/** {@code GET /clock}: the controller's clock and the wall clock, read together, for the tester's probe. */
final class ClockEndpoint implements Endpoint {

    private final Clock clock;
    private final long pid;

    ClockEndpoint(Clock clock, long pid) {
        this.clock = clock;
        this.pid = pid;
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException {
        Instant wall = Instant.now();
        long nowNanos = clock.nanoTime();
        AdminResponses.sendJson(exchange, 200, out -> {
            out.writeNumberField("now_ns", nowNanos);
            out.writeNumberField("wall_time_ms", wall.toEpochMilli());
            out.writeStringField("wall_time", wall.toString());
            out.writeNumberField("pid", pid);
        });
    }
}
