package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.observe.PauseObserver;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * Answers every call of one admin server: authorises it, finds its endpoint by path (404), checks its
 * method (405) and, for an endpoint without parameters, that it has no query (400), and answers every
 * refusal and failure as {@code {"error": ...}}. Nothing escapes into the JDK server's threads. Used by the
 * workers concurrently.
 */
final class AdminRouter {

    /** An endpoint at {@code path}, for {@code method} only; {@code takesQuery}: it reads its own parameters. */
    record Route(String method, String path, boolean takesQuery, Endpoint endpoint) {
    }

    private final AdminAuth auth;
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private final String notFoundHint;
    private final Runnable firstCall;
    private final AtomicBoolean called = new AtomicBoolean();

    /** {@code firstCall}: run once, at the first authorised call to an endpoint other than {@code /arm}. */
    AdminRouter(AdminAuth auth, List<Route> routes, Runnable firstCall) {
        this.auth = auth;
        this.firstCall = firstCall;
        routes.forEach(route -> this.routes.put(route.path(), route));
        this.notFoundHint = " (the admin API has " + routes.stream()
                .map(route -> route.method() + " " + route.path())
                .collect(Collectors.joining(", ")) + ")";
    }

    /**
     * The admin API of {@code controller}, as docs/admin-api.md lists it. Its first call but an arm (a tester's
     * clock probe or health check, which come before its warm-up) has the pause observer start JFR once
     * ({@link PauseObserver#prepare}): a JVM's first JFR start costs about a second of CPU, which would slow
     * the host's own start if it ran when the agent starts, and the first run if it ran at the arm.
     */
    static AdminRouter of(AdminConfig config, StallController controller, AdminAuth auth) {
        long pid = ProcessHandle.current().pid();
        PauseObserver pauses = config.pauses();
        Runnable prepare = pauses == null ? () -> { } : () -> pauses.prepare(Duration.ZERO);
        return new AdminRouter(auth, List.of(
                new Route("POST", "/arm", false, new ArmEndpoint(config, controller)),
                new Route("POST", "/disarm", false, new DisarmEndpoint(config, controller)),
                new Route("GET", "/stalls", true, new StallsEndpoint(controller)),
                new Route("GET", "/pauses", true, new PausesEndpoint(config.pauses())),
                new Route("GET", "/clock", false, new ClockEndpoint(controller.clock(), pid)),
                new Route("GET", "/health", false, new HealthEndpoint(config, controller, pid)),
                new Route("GET", "/metrics", false, new MetricsEndpoint(controller, config.pauses()))), prepare);
    }

    void handle(HttpExchange exchange) {
        AdminWorkers.requestHeadersRead();
        try (exchange) {
            try {
                route(exchange);
            } catch (AdminError e) {
                AdminResponses.sendError(exchange, e.status(), e.getMessage());
            } catch (IOException e) {
                // the client went away: nothing to answer
            } catch (RuntimeException e) {
                AdminResponses.sendError(exchange, 500, "internal error: " + e);
            }
        } catch (RuntimeException ignored) {
            // never let anything escape into the JDK server's threads
        }
    }

    private void route(HttpExchange exchange) throws IOException, AdminError {
        auth.authorize(exchange);
        String path = exchange.getRequestURI().getRawPath();
        Route route = routes.get(path);
        if (route == null) {
            throw new AdminError(404, "no such endpoint: " + exchange.getRequestMethod() + " " + path + notFoundHint);
        }
        if (!route.path().equals("/arm") && !called.get() && called.compareAndSet(false, true)) {
            firstCall.run();
        }
        allow(exchange, route.method());
        if (!route.takesQuery()) {
            RequestReader.noQuery(exchange);
        }
        route.endpoint().answer(exchange);
    }

    private static void allow(HttpExchange exchange, String method) throws AdminError {
        if (!exchange.getRequestMethod().equals(method)) {
            exchange.getResponseHeaders().set("Allow", method);
            throw new AdminError(405, "method " + exchange.getRequestMethod() + " not allowed on "
                    + exchange.getRequestURI().getRawPath() + " (use " + method + ")");
        }
    }
}
