package io.loadsmith.stall.admin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.loadsmith.stall.BuildInfo;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.ArmResult;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.control.StallPage;
import io.loadsmith.stall.control.StallRecord;
import io.loadsmith.stall.control.StallTotals;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.observe.PausePage;
import io.loadsmith.stall.observe.PauseSource;
import io.loadsmith.stall.observe.PauseTotals;
import io.loadsmith.stall.observe.PauseWindow;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallPlan;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The admin API of a stall controller ({@code POST /arm}, {@code POST /disarm}, {@code GET /stalls},
 * {@code GET /pauses}, {@code GET /clock}, {@code GET /health}, {@code GET /metrics}), served by the JDK's own
 * {@code com.sun.net.httpserver} on named daemon threads ({@code loadsmith-admin-N}) that every
 * {@link StallGate} lets through. docs/admin-api.md describes every call.
 *
 * <p>Bound to 127.0.0.1 by default. When a token is configured every call needs
 * {@code Authorization: Bearer TOKEN} (compared in constant time); binding to an address other than
 * loopback without a token is refused at start. Bad input answers 4xx with {@code {"error": "..."}};
 * the caps of {@link AdminConfig} cannot be raised through the API.
 *
 * <p>Slow clients are bounded by the server's own executor ({@link AdminWorkers}), never by the JDK
 * server's JVM-wide properties: one exchange may take {@link #EXCHANGE_LIMIT_MILLIS}; while other
 * connections wait for a worker, it may read its request for {@link #CROWDED_READ_LIMIT_MILLIS} and take
 * {@link #CROWDED_LIMIT_MILLIS} in all; then its connection is closed.
 *
 * <p>The JDK server delays small keep-alive responses by up to 40 ms unless
 * {@code sun.net.httpserver.nodelay} is true (Nagle's algorithm against delayed ACKs), which would spoil
 * the clock probe. {@link #start} sets that property to {@code true} when it is not set at all; it is
 * read once, when the JDK server's configuration class loads, and then applies to every JDK HTTP server
 * of the JVM. Pass {@code -Dsun.net.httpserver.nodelay=false} to keep Nagle on.
 */
public final class AdminServer implements AutoCloseable {

    /** Prefix of the names of the admin server's threads. */
    public static final String THREAD_NAME_PREFIX = "loadsmith-admin-";

    private static final int WORKER_THREADS = 4;
    /** How long one exchange (request, handler, answer) may take before its connection is closed. */
    static final long EXCHANGE_LIMIT_MILLIS = 5_000;
    /** How long one exchange may hold a worker while other connections wait for one. */
    static final long CROWDED_LIMIT_MILLIS = 1_000;
    /**
     * How long one exchange may read its request while other connections wait for a worker: a request of
     * a well-behaved client arrives in microseconds on loopback, and a fresh call in a crowd of half-sent
     * requests must be answered within 100 ms.
     */
    static final long CROWDED_READ_LIMIT_MILLIS = 20;
    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    private static final String JSON_TYPE = "application/json";

    private final HttpServer server;
    private final AdminWorkers executor;
    private final InetSocketAddress address;

    private AdminServer(HttpServer server, AdminWorkers executor) {
        this.server = server;
        this.executor = executor;
        this.address = server.getAddress();
    }

    /**
     * Binds and starts the admin server of {@code controller}.
     *
     * @throws IllegalArgumentException if the configuration is refused (a non-loopback address without a
     *                                  token, an unreadable or empty token file, an unknown host)
     * @throws UncheckedIOException     if the address cannot be bound
     */
    public static AdminServer start(AdminConfig config, StallController controller) {
        byte[] tokenHash = tokenHash(config);
        InetAddress host = resolve(config.host());
        if (tokenHash == null && !host.isLoopbackAddress()) {
            throw new IllegalArgumentException("admin: binding to " + config.host() + " (not loopback) needs a token "
                    + "(token or tokenFile): the stall API will not be served unauthenticated beyond this host");
        }
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        AdminWorkers executor = new AdminWorkers(WORKER_THREADS, TimeUnit.MILLISECONDS.toNanos(AdminWorkers.TICK_MILLIS),
                TimeUnit.MILLISECONDS.toNanos(EXCHANGE_LIMIT_MILLIS), TimeUnit.MILLISECONDS.toNanos(CROWDED_LIMIT_MILLIS),
                TimeUnit.MILLISECONDS.toNanos(CROWDED_READ_LIMIT_MILLIS), Clock.system(), AdminServer::newThread);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, config.port()), 64);
        } catch (IOException e) {
            executor.close();
            throw new UncheckedIOException("admin: cannot listen on " + config.host() + ":" + config.port()
                    + ": " + e.getMessage(), e);
        }
        server.setExecutor(executor);
        server.createContext("/", new Handler(config, controller, tokenHash)::handle);
        startOnDaemonThread(server);
        return new AdminServer(server, executor);
    }

    /** The address the server listens on (with the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    /** Stops listening and stops the server's threads. Idempotent. */
    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }

    private static Thread newThread(Runnable task) {
        Thread thread = new Thread(() -> {
            StallGate.exemptCurrentThread();
            task.run();
        }, THREAD_NAME_PREFIX + THREAD_NUMBER.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }

    /** The JDK server's dispatcher thread inherits daemon status from the thread that starts the server. */
    private static void startOnDaemonThread(HttpServer server) {
        Thread starter = newThread(server::start);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            try {
                starter.join();
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (IOException e) {
            throw new IllegalArgumentException("admin: unknown host " + host + ": " + e.getMessage(), e);
        }
    }

    private static byte[] tokenHash(AdminConfig config) {
        String token = config.token();
        if (config.tokenFile() != null) {
            if (token != null) {
                throw new IllegalArgumentException("admin: give a token or a token file, not both");
            }
            try {
                token = TokenFile.read(config.tokenFile());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("tokenFile: " + e.getMessage(), e);
            }
        }
        return token == null ? null : sha256(token);
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Answers every call; one instance per server, used by the worker threads concurrently. */
    private static final class Handler {
        private final AdminConfig config;
        private final StallController controller;
        private final byte[] tokenHash;
        private final JsonFactory json = new JsonFactory();
        private final ArmRequests armRequests;
        private final long pid = ProcessHandle.current().pid();

        Handler(AdminConfig config, StallController controller, byte[] tokenHash) {
            this.config = config;
            this.controller = controller;
            this.tokenHash = tokenHash;
            this.armRequests = new ArmRequests(json, config);
        }

        void handle(HttpExchange exchange) {
            AdminWorkers.requestHeadersRead();
            try (exchange) {
                try {
                    route(exchange);
                } catch (AdminError e) {
                    sendError(exchange, e.status(), e.getMessage());
                } catch (IOException e) {
                    // the client went away: nothing to answer
                } catch (RuntimeException e) {
                    sendError(exchange, 500, "internal error: " + e);
                }
            } catch (RuntimeException ignored) {
                // never let anything escape into the JDK server's threads
            }
        }

        private void route(HttpExchange exchange) throws IOException, AdminError {
            authorize(exchange);
            String path = exchange.getRequestURI().getRawPath();
            String method = exchange.getRequestMethod();
            switch (path) {
                case "/arm" -> {
                    allow(exchange, "POST");
                    arm(exchange);
                }
                case "/disarm" -> {
                    allow(exchange, "POST");
                    disarm(exchange);
                }
                case "/stalls" -> {
                    allow(exchange, "GET");
                    stalls(exchange);
                }
                case "/pauses" -> {
                    allow(exchange, "GET");
                    pauses(exchange);
                }
                case "/clock" -> {
                    allow(exchange, "GET");
                    noQuery(exchange);
                    clock(exchange);
                }
                case "/health" -> {
                    allow(exchange, "GET");
                    noQuery(exchange);
                    health(exchange);
                }
                case "/metrics" -> {
                    allow(exchange, "GET");
                    noQuery(exchange);
                    metrics(exchange);
                }
                default -> throw new AdminError(404, "no such endpoint: " + method + " " + path
                        + " (the admin API has POST /arm, POST /disarm, GET /stalls, GET /pauses, GET /clock, GET /health, GET /metrics)");
            }
        }

        private void authorize(HttpExchange exchange) throws AdminError {
            if (tokenHash == null) {
                return;
            }
            String header = exchange.getRequestHeaders().getFirst("Authorization");
            String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).strip() : "";
            if (!MessageDigest.isEqual(tokenHash, sha256(given))) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"loadsmith\"");
                throw new AdminError(401, header == null
                        ? "missing token: send the header Authorization: Bearer TOKEN"
                        : "wrong token");
            }
        }

        private static void allow(HttpExchange exchange, String method) throws AdminError {
            if (!exchange.getRequestMethod().equals(method)) {
                exchange.getResponseHeaders().set("Allow", method);
                throw new AdminError(405, "method " + exchange.getRequestMethod() + " not allowed on "
                        + exchange.getRequestURI().getRawPath() + " (use " + method + ")");
            }
        }

        private static void noQuery(HttpExchange exchange) throws AdminError {
            String query = exchange.getRequestURI().getRawQuery();
            if (query != null && !query.isEmpty()) {
                throw AdminError.badRequest("query: " + exchange.getRequestURI().getRawPath() + " takes no parameters (got "
                        + query + ")");
            }
        }

        // ---- endpoints ----------------------------------------------------------------------------

        private void arm(HttpExchange exchange) throws IOException, AdminError {
            noQuery(exchange);
            requireJson(exchange);
            byte[] body = readBody(exchange);
            ArmRequests.ArmRequest request = armRequests.parseRequest(body);
            StallPlan plan = request.plan();
            Optional<String> refusal = refusal();
            if (refusal.isPresent()) {
                throw new AdminError(409, refusal.get());
            }
            ArmResult result;
            try {
                result = controller.arm(plan, request.runId());
            } catch (IllegalStateException e) {
                throw new AdminError(409, "arming is refused: " + e.getMessage());
            }
            PauseObserver observer = config.pauses();
            if (observer != null) {
                observer.runArmed(result.armedAtNanos(), runNanos(plan));
            }
            sendJson(exchange, 200, out -> {
                out.writeStringField("run_id", result.runId());
                out.writeNumberField("armed_at_ns", result.armedAtNanos());
                out.writeStringField("kind", plan.kind().wireName());
                out.writeNumberField("horizon_ns", plan.horizonNanos());
                out.writeArrayFieldStart("stalls");
                for (PlannedStall stall : result.stalls()) {
                    out.writeStartObject();
                    out.writeNumberField("index", stall.index());
                    out.writeNumberField("offset_ns", stall.offsetNanos());
                    out.writeNumberField("planned_start_ns", result.armedAtNanos() + stall.offsetNanos());
                    out.writeNumberField("duration_ns", stall.durationNanos());
                    out.writeEndObject();
                }
                out.writeEndArray();
            });
        }

        /** How long an armed plan runs: its horizon, or to the end of its last window if that comes later. */
        private static long runNanos(StallPlan plan) {
            long nanos = plan.horizonNanos();
            for (PlannedStall stall : plan.stalls()) {
                nanos = Math.max(nanos, stall.offsetNanos() + stall.durationNanos());
            }
            return nanos;
        }

        private Optional<String> refusal() {
            try {
                Optional<String> reason = config.armRefusal().get();
                return reason == null ? Optional.empty() : reason.filter(text -> !text.isBlank());
            } catch (RuntimeException e) {
                return Optional.of("arming is refused: the service's arm check failed (" + e + ")");
            }
        }

        private void disarm(HttpExchange exchange) throws IOException, AdminError {
            noQuery(exchange);
            byte[] body = readBody(exchange);
            if (!new String(body, StandardCharsets.UTF_8).isBlank()) {
                requireJson(exchange);
                if (!new String(body, StandardCharsets.UTF_8).replaceAll("\\s", "").equals("{}")) {
                    throw AdminError.badRequest("body: /disarm takes no fields (send nothing or {})");
                }
            }
            String runId = controller.armed() ? controller.lastRunId() : null;
            List<StallRecord> stalls = controller.disarm();
            if (runId != null && config.pauses() != null) {
                config.pauses().runEnded(controller.clock().nanoTime());
            }
            sendJson(exchange, 200, out -> {
                out.writeBooleanField("disarmed", runId != null);
                writeNullableString(out, "run_id", runId);
                out.writeArrayFieldStart("stalls");
                for (StallRecord stall : stalls) {
                    writeRecord(out, stall);
                }
                out.writeEndArray();
            });
        }

        private void stalls(HttpExchange exchange) throws IOException, AdminError {
            String runId = null;
            long sinceIndex = 0;
            for (Map.Entry<String, String> parameter : query(exchange).entrySet()) {
                switch (parameter.getKey()) {
                    case "run_id" -> runId = parameter.getValue();
                    case "since_index" -> sinceIndex = nonNegativeLong("since_index", parameter.getValue());
                    default -> throw AdminError.badRequest(parameter.getKey()
                            + ": unknown parameter (GET /stalls takes run_id, since_index)");
                }
            }
            StallPage page = controller.stalls(runId, sinceIndex);
            String requestedRun = runId;
            boolean armed = controller.armed();
            String lastRunId = controller.lastRunId();
            sendJson(exchange, 200, out -> {
                writeNullableString(out, "run_id", requestedRun);
                writeNullableString(out, "last_run_id", lastRunId);
                out.writeBooleanField("armed", armed);
                out.writeNumberField("next_index", page.nextIndex());
                out.writeBooleanField("more", page.more());
                out.writeNumberField("dropped", page.dropped());
                out.writeArrayFieldStart("stalls");
                for (StallRecord stall : page.stalls()) {
                    writeRecord(out, stall);
                }
                out.writeEndArray();
            });
        }

        private void pauses(HttpExchange exchange) throws IOException, AdminError {
            long sinceIndex = 0;
            for (Map.Entry<String, String> parameter : query(exchange).entrySet()) {
                if (!parameter.getKey().equals("since_index")) {
                    throw AdminError.badRequest(parameter.getKey() + ": unknown parameter (GET /pauses takes since_index)");
                }
                sinceIndex = nonNegativeLong("since_index", parameter.getValue());
            }
            PauseObserver observer = config.pauses();
            PausePage page = observer == null ? new PausePage(List.of(), sinceIndex, false, 0) : observer.pauses(sinceIndex);
            sendJson(exchange, 200, out -> {
                out.writeBooleanField("observing", observer != null);
                out.writeStringField("jfr", observer == null ? "off" : observer.jfrStatus());
                out.writeNumberField("next_index", page.nextIndex());
                out.writeBooleanField("more", page.more());
                out.writeNumberField("dropped", page.dropped());
                out.writeArrayFieldStart("pauses");
                for (PauseWindow pause : page.pauses()) {
                    writePause(out, pause);
                }
                out.writeEndArray();
            });
        }

        private void clock(HttpExchange exchange) throws IOException {
            Instant wall = Instant.now();
            long nowNanos = controller.clock().nanoTime();
            sendJson(exchange, 200, out -> {
                out.writeNumberField("now_ns", nowNanos);
                out.writeNumberField("wall_time_ms", wall.toEpochMilli());
                out.writeStringField("wall_time", wall.toString());
                out.writeNumberField("pid", pid);
            });
        }

        private void health(HttpExchange exchange) throws IOException {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("status", "ok");
            fields.put("version", config.version());
            fields.put("commit", BuildInfo.current().commit());
            fields.put("armed", controller.armed());
            fields.put("last_run_id", controller.lastRunId());
            fields.put("pid", pid);
            fields.put("pauses", pauseCounts());
            try {
                Map<String, Object> details = config.healthDetails().get();
                if (details != null) {
                    details.forEach(fields::putIfAbsent);
                }
            } catch (RuntimeException e) {
                fields.put("details_error", e.toString());
            }
            sendJson(exchange, 200, out -> {
                for (Map.Entry<String, Object> field : fields.entrySet()) {
                    out.writeFieldName(field.getKey());
                    writeValue(out, field.getValue(), 0);
                }
            });
        }

        private Map<String, Object> pauseCounts() {
            PauseObserver observer = config.pauses();
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("observing", observer != null);
            if (observer != null) {
                PauseTotals totals = observer.totals();
                counts.put("mode", observer.whenArmedOnly() ? "armed" : "always");
                counts.put("running", observer.running());
                counts.put("jfr", observer.jfrStatus());
                counts.put("safepoints", totals.safepoints());
                counts.put("sleeper", totals.sleeper());
                counts.put("host", totals.hostSleeper());
                counts.put("dropped", totals.droppedRecords());
            }
            return counts;
        }

        private void metrics(HttpExchange exchange) throws IOException {
            StallTotals totals = controller.totals();
            StringBuilder text = new StringBuilder(1024);
            metric(text, "loadsmith_stalls_total", "counter", "Stall windows that have ended.", Long.toString(totals.stalls()));
            metric(text, "loadsmith_stalled_seconds_total", "counter", "Time spent in stall windows, in seconds.",
                    Double.toString(totals.stalledNanos() / 1e9));
            metric(text, "loadsmith_held_requests_total", "counter", "Requests the gate held in a stall window.",
                    Long.toString(totals.held()));
            metric(text, "loadsmith_stall_records_dropped_total", "counter",
                    "Stall records dropped to keep memory bounded (the totals above still count them).",
                    Long.toString(totals.droppedRecords()));
            metric(text, "loadsmith_armed", "gauge", "1 while a stall plan is armed, else 0.",
                    controller.armed() ? "1" : "0");
            metric(text, "loadsmith_stall_active", "gauge",
                    "1 while a stall window is open (requests arriving are held), else 0.",
                    controller.stalling() ? "1" : "0");
            PauseObserver observer = config.pauses();
            metric(text, "loadsmith_pause_observer", "gauge", "1 while a pause observer runs, else 0.",
                    observer == null ? "0" : "1");
            if (observer != null) {
                metric(text, "loadsmith_pause_observer_jfr", "gauge",
                        "1 while the pause observer reads safepoints through JFR, else 0 (the sleeper alone).",
                        "on".equals(observer.jfrStatus()) ? "1" : "0");
                pauseMetrics(text, observer.totals());
            }
            send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", text.toString().getBytes(StandardCharsets.UTF_8));
        }

        private static void pauseMetrics(StringBuilder text, PauseTotals totals) {
            String safepoint = "{source=\"" + PauseSource.SAFEPOINT.wireName() + "\"}";
            String sleeper = "{source=\"" + PauseSource.SLEEPER.wireName() + "\"}";
            text.append("# HELP loadsmith_pauses_total Real pauses observed (safepoints through JFR, late wake-ups of the sleeper thread).\n")
                    .append("# TYPE loadsmith_pauses_total counter\n")
                    .append("loadsmith_pauses_total").append(safepoint).append(' ').append(totals.safepoints()).append('\n')
                    .append("loadsmith_pauses_total").append(sleeper).append(' ').append(totals.sleeper()).append('\n');
            text.append("# HELP loadsmith_paused_seconds_total Time in observed pauses, in seconds.\n")
                    .append("# TYPE loadsmith_paused_seconds_total counter\n")
                    .append("loadsmith_paused_seconds_total").append(safepoint).append(' ').append(totals.safepointNanos() / 1e9).append('\n')
                    .append("loadsmith_paused_seconds_total").append(sleeper).append(' ').append(totals.sleeperNanos() / 1e9).append('\n');
            metric(text, "loadsmith_host_pauses_total", "counter",
                    "Sleeper pauses that overlap no safepoint (the host: a stop, CPU starvation, throttling).",
                    Long.toString(totals.hostSleeper()));
            metric(text, "loadsmith_pause_records_dropped_total", "counter",
                    "Pause records dropped to keep memory bounded (the totals above still count them).",
                    Long.toString(totals.droppedRecords()));
        }

        private static void metric(StringBuilder text, String name, String type, String help, String value) {
            text.append("# HELP ").append(name).append(' ').append(help).append('\n');
            text.append("# TYPE ").append(name).append(' ').append(type).append('\n');
            text.append(name).append(' ').append(value).append('\n');
        }

        // ---- input --------------------------------------------------------------------------------

        private static void requireJson(HttpExchange exchange) throws AdminError {
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            String mediaType = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
            if (!mediaType.equals(JSON_TYPE)) {
                throw new AdminError(415, "Content-Type: must be " + JSON_TYPE + " (got "
                        + (type == null ? "none" : type) + ")");
            }
        }

        /**
         * How much of an oversized body is read and dropped before answering 413 (the time it may take is
         * bounded by {@link #EXCHANGE_LIMIT_MILLIS}).
         */
        private static final long DRAIN_LIMIT_BYTES = 64L << 20;

        /**
         * Reads the whole body. If the exchange is cut meanwhile (the client is too slow: see
         * {@link AdminWorkers}), the cut answers 408, or 413 while an oversized body is being drained, and this
         * ends in an IOException.
         */
        private byte[] readBody(HttpExchange exchange) throws IOException, AdminError {
            int max = config.maxBodyBytes();
            String length = exchange.getRequestHeaders().getFirst("Content-Length");
            if (length != null) {
                long declared;
                try {
                    declared = Long.parseLong(length.strip());
                } catch (NumberFormatException e) {
                    throw AdminError.badRequest("Content-Length: not a number (" + length + ")");
                }
                if (declared > max) {
                    throw drained(exchange, exchange.getRequestBody(),
                            new AdminError(413, "body: " + declared + " bytes is over the limit of " + max + " bytes"));
                }
            }
            InputStream in = exchange.getRequestBody();
            byte[] buffer = new byte[Math.min(max + 1, 8192)];
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            AdminWorkers.answerOnCut(() -> sendOnCut(exchange, 408, SLOW_BODY));
            int read;
            while ((read = in.read(buffer)) >= 0) {
                body.write(buffer, 0, read);
                if (body.size() > max) {
                    throw drained(exchange, in, new AdminError(413, "body: over the limit of " + max + " bytes"));
                }
            }
            if (!AdminWorkers.withdrawAnswer()) {
                throw new IOException("cut while the body arrived: the cut answered 408");
            }
            return body.toByteArray();
        }

        private static final String SLOW_BODY = "body: not received in time (a request may take "
                + EXCHANGE_LIMIT_MILLIS / 1000 + " s, or " + CROWDED_READ_LIMIT_MILLIS + " ms while other connections wait); "
                + "the connection is closed";

        /** Drains what is left of an oversized body and gives its 413, which a cut meanwhile answers in its place. */
        private AdminError drained(HttpExchange exchange, InputStream in, AdminError error) throws IOException {
            AdminWorkers.answerOnCut(() -> sendOnCut(exchange, error.status(), error.getMessage()));
            drainQuietly(in);
            if (!AdminWorkers.withdrawAnswer()) {
                throw new IOException("cut while draining: the cut answered " + error.status());
            }
            return error;
        }

        /**
         * Reads and drops what is left of an oversized body, up to {@link #DRAIN_LIMIT_BYTES}, so that the
         * client has finished sending when the 413 goes out: answering and closing while it still writes
         * makes its TCP stack reset the connection and lose the answer.
         */
        private static void drainQuietly(InputStream in) {
            byte[] buffer = new byte[8192];
            long drained = 0;
            try {
                int read;
                while (drained < DRAIN_LIMIT_BYTES && (read = in.read(buffer)) >= 0) {
                    drained += read;
                }
            } catch (IOException ignored) {
                // the client went away: the 413 is answered (or not) all the same
            }
        }

        private static Map<String, String> query(HttpExchange exchange) throws AdminError {
            String raw = exchange.getRequestURI().getRawQuery();
            Map<String, String> parameters = new LinkedHashMap<>();
            if (raw == null || raw.isEmpty()) {
                return parameters;
            }
            for (String pair : raw.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
                if (parameters.put(name, value) != null) {
                    throw AdminError.badRequest(name + ": given twice");
                }
            }
            return parameters;
        }

        private static String decode(String text) throws AdminError {
            try {
                return URLDecoder.decode(text, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw AdminError.badRequest("query: cannot decode " + text + " (" + e.getMessage() + ")");
            }
        }

        private static long nonNegativeLong(String name, String value) throws AdminError {
            try {
                long parsed = Long.parseLong(value);
                if (parsed >= 0) {
                    return parsed;
                }
            } catch (NumberFormatException ignored) {
                // answered below
            }
            throw AdminError.badRequest(name + ": must be an integer >= 0 (got " + value + ")");
        }

        // ---- output -------------------------------------------------------------------------------

        private interface Fields {
            void write(JsonGenerator out) throws IOException;
        }

        private void sendJson(HttpExchange exchange, int status, Fields fields) throws IOException {
            send(exchange, status, JSON_TYPE, jsonBytes(fields));
        }

        private byte[] jsonBytes(Fields fields) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            try (JsonGenerator out = json.createGenerator(bytes)) {
                out.writeStartObject();
                fields.write(out);
                out.writeEndObject();
            }
            bytes.write('\n');
            return bytes.toByteArray();
        }

        /**
         * The error answer of a cut, written on the watchdog's answer thread while the worker is still blocked
         * reading the request: written and flushed but not closed (closing would drain the request body, which
         * the blocked worker is reading); the cut then closes the connection.
         */
        private void sendOnCut(HttpExchange exchange, int status, String message) {
            try {
                byte[] body = jsonBytes(out -> out.writeStringField("error", message));
                Headers headers = exchange.getResponseHeaders();
                headers.set("Content-Type", JSON_TYPE);
                headers.set("Cache-Control", "no-store");
                headers.set("Connection", "close");
                exchange.sendResponseHeaders(status, body.length);
                OutputStream out = exchange.getResponseBody();
                out.write(body);
                out.flush();
            } catch (IOException | RuntimeException ignored) {
                // the client went away
            }
        }

        private void sendError(HttpExchange exchange, int status, String message) {
            try {
                sendJson(exchange, status, out -> out.writeStringField("error", message));
            } catch (IOException | RuntimeException ignored) {
                // the client went away, or the response was already started
            }
        }

        private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
            Headers headers = exchange.getResponseHeaders();
            headers.set("Content-Type", type);
            headers.set("Cache-Control", "no-store");
            if (exchange.getRequestMethod().equals("HEAD")) {
                AdminWorkers.drainingRequest(); // the JDK drains the request body as it sends these headers
                exchange.sendResponseHeaders(status, -1); // a HEAD answer has no body (the JDK warns otherwise)
                return;
            }
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
                AdminWorkers.drainingRequest(); // closing drains what the handler left unread of the request body
            }
        }

        private static void writeRecord(JsonGenerator out, StallRecord stall) throws IOException {
            out.writeStartObject();
            out.writeNumberField("index", stall.index());
            out.writeStringField("run_id", stall.runId());
            out.writeNumberField("planned_start_ns", stall.plannedStartNanos());
            out.writeNumberField("start_ns", stall.startNanos());
            out.writeNumberField("end_ns", stall.endNanos());
            out.writeNumberField("held", stall.held());
            out.writeStringField("kind", stall.kind().wireName());
            out.writeEndObject();
        }

        private static void writePause(JsonGenerator out, PauseWindow pause) throws IOException {
            out.writeStartObject();
            out.writeNumberField("index", pause.index());
            out.writeStringField("source", pause.source().wireName());
            out.writeStringField("label", pause.label());
            out.writeNumberField("start_ns", pause.startNanos());
            out.writeNumberField("end_ns", pause.endNanos());
            if (pause.source() == PauseSource.SAFEPOINT) {
                writeNullableString(out, "operation", pause.operation());
                writeNullableString(out, "gc", pause.gc());
                out.writeNumberField("time_to_safepoint_ns", pause.timeToSafepointNanos());
            }
            out.writeEndObject();
        }

        private static void writeNullableString(JsonGenerator out, String name, String value) throws IOException {
            if (value == null) {
                out.writeNullField(name);
            } else {
                out.writeStringField(name, value);
            }
        }

        private static void writeValue(JsonGenerator out, Object value, int depth) throws IOException {
            if (depth > 16) {
                out.writeString(String.valueOf(value));
            } else if (value == null) {
                out.writeNull();
            } else if (value instanceof String text) {
                out.writeString(text);
            } else if (value instanceof Boolean flag) {
                out.writeBoolean(flag);
            } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
                out.writeNumber(((Number) value).longValue());
            } else if (value instanceof Double || value instanceof Float) {
                double number = ((Number) value).doubleValue();
                if (Double.isFinite(number)) {
                    out.writeNumber(number);
                } else {
                    out.writeString(Double.toString(number));
                }
            } else if (value instanceof Number number) {
                out.writeNumber(number.toString());
            } else if (value instanceof Map<?, ?> map) {
                out.writeStartObject();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    out.writeFieldName(String.valueOf(entry.getKey()));
                    writeValue(out, entry.getValue(), depth + 1);
                }
                out.writeEndObject();
            } else if (value instanceof Iterable<?> items) {
                out.writeStartArray();
                for (Object item : items) {
                    writeValue(out, item, depth + 1);
                }
                out.writeEndArray();
            } else if (value.getClass().isArray()) {
                out.writeStartArray();
                for (int i = 0; i < Array.getLength(value); i++) {
                    writeValue(out, Array.get(value, i), depth + 1);
                }
                out.writeEndArray();
            } else {
                out.writeString(value.toString());
            }
        }
    }
}
