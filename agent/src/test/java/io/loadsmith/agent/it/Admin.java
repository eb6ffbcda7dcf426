package io.loadsmith.agent.it;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/** The agent's admin API as a test calls it (JSON read with patterns: the fields are flat numbers). */
final class Admin {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;
    /** The run the last {@link #arm} started; {@link #stalls()} asks for that run only. */
    private volatile String lastRunId;

    Admin(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    record Reply(int status, String body) {
    }

    record Window(long plannedStartNanos, long startNanos, long endNanos, long held) {
        double durationMillis() {
            return (endNanos - startNanos) / 1e6;
        }
    }

    Reply get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
    }

    Reply post(String path, String json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    private Reply send(HttpRequest.Builder request) throws IOException, InterruptedException {
        request.timeout(Duration.ofSeconds(10));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.body());
    }

    /** Arms one explicit stall; returns {@code armed_at_ns}. */
    long armOne(long offsetMillis, long durationMillis) throws IOException, InterruptedException {
        return arm("{\"stalls\":[{\"offset_ms\":" + offsetMillis + ",\"duration_ms\":" + durationMillis + "}],\"kind\":\"block\"}");
    }

    /** Arms a plan given as JSON; returns {@code armed_at_ns}. */
    long arm(String json) throws IOException, InterruptedException {
        Reply reply = post("/arm", json);
        if (reply.status() != 200) {
            throw new AssertionError("POST /arm answered " + reply.status() + ": " + reply.body());
        }
        Matcher runId = Pattern.compile("\"run_id\":\"([^\"]+)\"").matcher(reply.body());
        lastRunId = runId.find() ? runId.group(1) : null;
        return number(reply.body(), "armed_at_ns");
    }

    /** The run id the last {@link #arm} answered, or null. */
    String lastRunId() {
        return lastRunId;
    }

    List<Window> stalls() throws IOException, InterruptedException {
        Reply reply = get(lastRunId == null ? "/stalls" : "/stalls?run_id=" + lastRunId);
        if (reply.status() != 200) {
            throw new AssertionError("GET /stalls answered " + reply.status() + ": " + reply.body());
        }
        List<Window> windows = new ArrayList<>();
        Matcher m = Pattern.compile("\"planned_start_ns\":(-?\\d+),\"start_ns\":(-?\\d+),\"end_ns\":(-?\\d+),\"held\":(\\d+)")
                .matcher(reply.body());
        while (m.find()) {
            windows.add(new Window(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                    Long.parseLong(m.group(4))));
        }
        return windows;
    }

    /**
     * The app's observed pauses ({@code GET /pauses}) that overlap {@code [fromNanos, toNanos]}, one per line
     * as source, label and span in ms after {@code originNanos}: what a failed timing assertion shows, so
     * that it says whether the whole process was stopped (a safepoint) or starved (the sleeper woke late)
     * then. Called for a late window or a failed assertion only: it first lets the time JFR may take to deliver pass (up to ~2 s,
     * docs/pauses.md).
     */
    String pausesBetween(long fromNanos, long toNanos, long originNanos) {
        RawHttp.waitUntil(toNanos + JFR_DELIVERY_NANOS);
        try {
            Reply reply = get("/pauses");
            StringBuilder near = new StringBuilder();
            Matcher pause = Pattern.compile("\"source\":\"(\\w+)\",\"label\":\"([^\"]*)\",\"start_ns\":(-?\\d+),\"end_ns\":(-?\\d+)")
                    .matcher(reply.body());
            while (pause.find()) {
                long start = Long.parseLong(pause.group(3));
                long end = Long.parseLong(pause.group(4));
                if (start <= toNanos && end >= fromNanos) {
                    near.append(String.format("%n  %s %s %.1f-%.1f", pause.group(1), pause.group(2),
                            (start - originNanos) / 1e6, (end - originNanos) / 1e6));
                }
            }
            return near.length() == 0 ? "none" : near.toString();
        } catch (IOException | InterruptedException | RuntimeException e) {
            return "unavailable: " + e;
        }
    }

    private static final long MIN_WAIT_NANOS = 1_000_000L;
    private static final long JFR_DELIVERY_NANOS = 2_500_000_000L;

    /**
     * {@link #stalls()} once a window is recorded (the controller records a window as it closes, which may
     * come later than planned on a busy box), or the empty list at {@code deadlineNanos}.
     */
    List<Window> awaitStalls(long deadlineNanos) throws IOException, InterruptedException {
        Duration left = Duration.ofNanos(Math.max(MIN_WAIT_NANOS, deadlineNanos - System.nanoTime()));
        try {
            return await("a recorded window").atMost(left).pollInterval(Duration.ofMillis(10)).until(this::stalls, w -> !w.isEmpty());
        } catch (ConditionTimeoutException e) {
            return stalls(); // the caller's assertion says what it expected of the windows
        }
    }

    /**
     * Polls {@code /health} until the pause observer no longer starts JFR ahead of the first run ({@code "jfr":
     * "preparing"}): a JVM's first JFR start (a second of CPU, a {@code RedefineClasses} safepoint) is then not
     * inside the test's window. At most 30 s.
     */
    void awaitPrepared() {
        await("the observer's JFR start ahead of the first run, 30 s after the first admin call").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(() -> get("/health").body(), h -> !h.contains("\"jfr\":\"preparing\""));
    }

    static long number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\":(-?\\d+)").matcher(json);
        if (!m.find()) {
            throw new AssertionError("no " + field + " in " + json);
        }
        return Long.parseLong(m.group(1));
    }
}
