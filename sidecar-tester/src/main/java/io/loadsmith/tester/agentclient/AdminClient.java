package io.loadsmith.tester.agentclient;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadsmith.stall.clock.Nanos;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of an agent's admin API (docs/admin-api.md): {@code POST /arm}, {@code POST /disarm},
 * {@code GET /stalls} and {@code GET /pauses} (paged), {@code GET /clock}, {@code GET /health}. Uses the JDK's own
 * {@link HttpClient}: a few calls per run do not need the load transport, and the admin API is plain
 * HTTP/1.1 JSON.
 *
 * <pre>{@code
 * AdminClient admin = AdminClient.of(URI.create("http://127.0.0.1:7070"), TokenFile.read(tokenFile));
 * AdminClient.Armed armed = admin.arm(spec, StallKind.BLOCK);
 * ... run ...
 * List<ServerStall> stalls = admin.stalls(armed.runId());
 * }</pre>
 *
 * <p>Every failure is an {@link AdminException} whose message names the address and the call. Thread-safe.
 */
public final class AdminClient implements AdminApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);
    /** Pages of {@code GET /stalls} or {@code GET /pauses} fetched at most (the agent pages by 1,000 and 10,000). */
    private static final int MAX_PAGES = 1_000;

    private final URI base;
    private final String token;
    private final HttpClient http;

    private AdminClient(URI base, String token) {
        this.base = base;
        this.token = token;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
    }

    /**
     * A client of the admin API at {@code base} (e.g. {@code http://127.0.0.1:7070}).
     *
     * @param token the bearer token, or null when the agent runs without one
     */
    public static AdminClient of(URI base, String token) {
        if (base.getScheme() == null || !(base.getScheme().equals("http") || base.getScheme().equals("https"))
                || base.getHost() == null) {
            throw new IllegalArgumentException("admin: " + base + " is not an http://HOST:PORT address");
        }
        String text = base.toString();
        return new AdminClient(URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text),
                token == null || token.isBlank() ? null : token.strip());
    }

    /** The admin address. */
    @Override
    public URI base() {
        return base;
    }

    /**
     * What {@code POST /arm} answered.
     *
     * @param runId        the id the agent gave the run; its stalls are fetched with it
     * @param armedAtNanos the moment of arming, on the server's clock
     * @param horizonNanos how long after arming the plan lasts
     * @param stalls       the planned stalls (offsets from the moment of arming)
     */
    public record Armed(String runId, long armedAtNanos, long horizonNanos, List<PlannedStall> stalls) {
        public Armed {
            stalls = List.copyOf(stalls);
        }
    }

    /** Arms a seeded plan. */
    public Armed arm(SeededPlanSpec spec, StallKind kind) throws AdminException {
        return arm(spec, kind, null);
    }

    /** Arms a seeded plan under a run id of the caller's (null: the agent makes one); docs/admin-api.md. */
    @Override
    public Armed arm(SeededPlanSpec spec, StallKind kind, String runId) throws AdminException {
        ObjectNode body = JSON.createObjectNode();
        body.put("seed", spec.seed());
        body.put("mean_interval_ms", Nanos.toMillis(spec.meanIntervalNanos()));
        body.put("duration_ms", Nanos.toMillis(spec.durationNanos()));
        body.put("min_gap_ms", Nanos.toMillis(spec.minGapNanos()));
        body.put("horizon_ms", Nanos.toMillis(spec.horizonNanos()));
        body.put("kind", kind.wireName());
        if (runId != null) {
            body.put("run_id", runId);
        }
        return armed(armJson(body));
    }

    /**
     * {@code POST /arm} with a body as given (the agent validates it) and its answer as JSON, for printing;
     * {@link #arm(SeededPlanSpec, StallKind)} is the typed form.
     */
    public JsonNode armJson(JsonNode body) throws AdminException {
        return call("POST", "/arm", body);
    }

    /** Arms an explicit list of (offset, duration) windows; their indices are ignored. */
    public Armed arm(List<PlannedStall> windows, StallKind kind) throws AdminException {
        return arm(windows, kind, null);
    }

    /** Arms an explicit list of windows under a run id of the caller's (null: the agent makes one). */
    @Override
    public Armed arm(List<PlannedStall> windows, StallKind kind, String runId) throws AdminException {
        return armed(armJson(explicitBody(windows, kind, runId)));
    }

    @Override
    public Armed armNoStalls(long horizonNanos, StallKind kind, String runId) throws AdminException {
        ObjectNode body = explicitBody(List.of(), kind, runId);
        body.put("horizon_ms", Nanos.toMillis(horizonNanos));
        return armed(armJson(body));
    }

    /** The body of {@code POST /arm} for explicit windows (offsets and durations in ms, as the API takes them). */
    public static ObjectNode explicitBody(List<PlannedStall> windows, StallKind kind, String runId) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode stalls = body.putArray("stalls");
        for (PlannedStall window : windows) {
            stalls.addObject().put("offset_ms", Nanos.toMillis(window.offsetNanos()))
                    .put("duration_ms", Nanos.toMillis(window.durationNanos()));
        }
        body.put("kind", kind.wireName());
        if (runId != null) {
            body.put("run_id", runId);
        }
        return body;
    }

    private Armed armed(JsonNode answer) throws AdminException {
        List<PlannedStall> stalls = new ArrayList<>();
        for (JsonNode stall : array(answer, "stalls", "/arm")) {
            stalls.add(new PlannedStall(requireLong(stall, "index", "/arm").intValue(),
                    requireLong(stall, "offset_ns", "/arm"), requireLong(stall, "duration_ns", "/arm")));
        }
        return new Armed(requireText(answer, "run_id", "/arm"), requireLong(answer, "armed_at_ns", "/arm"),
                answer.path("horizon_ns").asLong(0), stalls);
    }

    /** Cancels pending stalls (a stall in progress ends now) and returns the windows of the run so far. */
    @Override
    public List<ServerStall> disarm() throws AdminException {
        return stallList(disarmJson(), "/disarm");
    }

    /** {@code POST /disarm} and its answer as JSON, for printing. */
    public JsonNode disarmJson() throws AdminException {
        return call("POST", "/disarm", JSON.createObjectNode());
    }

    /** One page of {@code GET /stalls}. */
    public record StallPage(List<ServerStall> stalls, long nextIndex, boolean more) {
    }

    /**
     * One page of the stalls that have happened.
     *
     * @param runId      only this run's stalls; null for every run's
     * @param sinceIndex the first stall index wanted
     */
    @Override
    public StallPage stalls(String runId, long sinceIndex) throws AdminException {
        JsonNode answer = stallsJson(runId, sinceIndex);
        return new StallPage(stallList(answer, "/stalls"), requireLong(answer, "next_index", "/stalls"),
                answer.path("more").asBoolean(false));
    }

    /** One page of {@code GET /stalls} as the agent answered it, for printing (runId null: every run's). */
    public JsonNode stallsJson(String runId, long sinceIndex) throws AdminException {
        StringBuilder path = new StringBuilder("/stalls?since_index=").append(sinceIndex);
        if (runId != null) {
            path.append("&run_id=").append(URLEncoder.encode(runId, StandardCharsets.UTF_8));
        }
        return call("GET", path.toString(), null);
    }

    /** Every stall of a run that has happened, following the pages. */
    @Override
    public List<ServerStall> stalls(String runId) throws AdminException {
        List<ServerStall> all = new ArrayList<>();
        long since = 0;
        for (int page = 0; page < MAX_PAGES; page++) {
            StallPage answer = stalls(runId, since);
            all.addAll(answer.stalls());
            if (!answer.more() || answer.nextIndex() <= since) {
                return all;
            }
            since = answer.nextIndex();
        }
        throw new AdminException("admin " + base + ": GET /stalls still had more after " + MAX_PAGES + " pages", 0, null);
    }

    /**
     * One page of {@code GET /pauses}.
     *
     * @param observing false when the agent runs no pause observer ({@code observe=off})
     * @param jfr       the observer's JFR source: {@code on}, {@code off} or {@code off: REASON}
     */
    public record PausePage(List<ServerPause> pauses, long nextIndex, boolean more, boolean observing, String jfr) {
    }

    /** One page of the pauses the agent observed, from index {@code sinceIndex}. */
    public PausePage pauses(long sinceIndex) throws AdminException {
        JsonNode answer = call("GET", "/pauses?since_index=" + sinceIndex, null);
        List<ServerPause> pauses = new ArrayList<>();
        for (JsonNode pause : array(answer, "pauses", "/pauses")) {
            JsonNode ttsp = pause.get("time_to_safepoint_ns");
            pauses.add(new ServerPause(requireLong(pause, "index", "/pauses").intValue(),
                    requireText(pause, "source", "/pauses"), requireText(pause, "label", "/pauses"),
                    requireLong(pause, "start_ns", "/pauses"), requireLong(pause, "end_ns", "/pauses"),
                    ttsp != null && ttsp.isIntegralNumber() ? ttsp.asLong() : null, pause));
        }
        return new PausePage(pauses, requireLong(answer, "next_index", "/pauses"), answer.path("more").asBoolean(false),
                answer.path("observing").asBoolean(false), answer.path("jfr").asText("off"));
    }

    /**
     * Every pause the agent still keeps, following the pages; {@code observing} and {@code jfr} are the
     * first page's.
     */
    @Override
    public PausePage pauses() throws AdminException {
        List<ServerPause> all = new ArrayList<>();
        long since = 0;
        PausePage first = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            PausePage answer = pauses(since);
            first = first == null ? answer : first;
            all.addAll(answer.pauses());
            if (!answer.more() || answer.nextIndex() <= since) {
                return new PausePage(all, answer.nextIndex(), false, first.observing(), first.jfr());
            }
            since = answer.nextIndex();
        }
        throw new AdminException("admin " + base + ": GET /pauses still had more after " + MAX_PAGES + " pages", 0, null);
    }

    /** The server's clock ({@code now_ns} of {@code GET /clock}); use with {@link ClockProbe}. */
    @Override
    public long serverNanos() throws AdminException {
        return requireLong(clockJson(), "now_ns", "/clock");
    }

    /** {@code GET /clock} as it answered ({@code now_ns}, {@code pid}, {@code wall_time}). */
    public JsonNode clockJson() throws AdminException {
        return call("GET", "/clock", null);
    }

    /** {@code GET /health} as it answered. */
    @Override
    public JsonNode health() throws AdminException {
        return call("GET", "/health", null);
    }

    private List<ServerStall> stallList(JsonNode answer, String what) throws AdminException {
        List<ServerStall> stalls = new ArrayList<>();
        for (JsonNode stall : array(answer, "stalls", what)) {
            stalls.add(new ServerStall(requireLong(stall, "index", what).intValue(),
                    stall.path("planned_start_ns").asLong(0), requireLong(stall, "start_ns", what),
                    requireLong(stall, "end_ns", what), stall.path("held").asLong(0), stall.path("kind").asText("block"),
                    stall.path("run_id").isTextual() ? stall.get("run_id").asText() : null));
        }
        return stalls;
    }

    private JsonNode call(String method, String path, JsonNode body) throws AdminException {
        String call = method + " " + path.replaceFirst("\\?.*", "");
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(CALL_TIMEOUT)
                .header("Accept", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body.toString()));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException | HttpConnectTimeoutException e) {
            throw new AdminException("admin " + base + ": cannot reach the agent's admin API for " + call + " ("
                    + describe(e) + "); is the service running with the agent's admin= address?", 0, e);
        } catch (HttpTimeoutException e) {
            throw new AdminException("admin " + base + ": " + call + " got no answer within "
                    + CALL_TIMEOUT.toSeconds() + " s", 0, e);
        } catch (IOException e) {
            throw new AdminException("admin " + base + ": " + call + " failed: " + describe(e), 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminException("admin " + base + ": " + call + " was interrupted", 0, e);
        }
        JsonNode answer;
        try {
            answer = JSON.readTree(response.body());
        } catch (IOException e) {
            answer = null;
        }
        int status = response.statusCode();
        if (status != 200) {
            String error = answer != null && answer.path("error").isTextual() ? answer.get("error").asText()
                    : abbreviate(response.body());
            String hint = status == 401 ? " (check the token or token_file: it must match the agent's token=)" : "";
            throw new AdminException("admin " + base + ": " + call + " answered " + status + ": " + error + hint,
                    status, null);
        }
        if (answer == null || !answer.isObject()) {
            throw new AdminException("admin " + base + ": " + call + " answered something that is not the admin "
                    + "protocol's JSON: " + abbreviate(response.body()), 0, null);
        }
        return answer;
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String abbreviate(String text) {
        String line = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    private Iterable<JsonNode> array(JsonNode answer, String field, String what) throws AdminException {
        JsonNode node = answer.get(field);
        if (node == null || !node.isArray()) {
            throw malformed(what, field + " (an array)");
        }
        return node;
    }

    private Long requireLong(JsonNode node, String field, String what) throws AdminException {
        JsonNode value = node.get(field);
        if (value == null || !value.canConvertToLong() || !value.isIntegralNumber()) {
            throw malformed(what, field + " (an integer)");
        }
        return value.asLong();
    }

    private String requireText(JsonNode node, String field, String what) throws AdminException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw malformed(what, field + " (a string)");
        }
        return value.asText();
    }

    private AdminException malformed(String what, String field) {
        return new AdminException("admin " + base + ": the answer to " + what + " has no " + field
                + ": is this a loadsmith agent of the same version?", 0, null);
    }
}
