package io.loadsmith.stall.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sends {@link AdminFuzz} cases one after the other to an admin API and checks what the API promises: never
 * a 5xx, never a hang (each call answered or closed within {@code deadlineMillis}), nothing armed by a call
 * that may not arm (each call that did arm is disarmed at once), and, after every batch, the API healthy
 * and unarmed and the host's own check passing. Used by {@code AdminFuzzIT} and the fuzz bench.
 */
final class AdminFuzzCampaign {

    /** What a batch boundary checks in the host (for example that the app beside the API still answers). */
    interface HostCheck {
        /** @return null when the host is fine, else what is wrong */
        String check() throws Exception;
    }

    /**
     * The campaign's counts. {@code counts} maps each family to its counts by outcome: an HTTP status, or
     * {@code closed} (closed without an answer), {@code reset} (reset without an answer).
     */
    record Report(int requests, Map<AdminFuzz.Family, Map<String, Integer>> counts, List<String> violations,
                  long slowestNanos, String slowestCase, int armedByValidCalls) {
    }

    /** Enough for the answer of a plan of 100,000 stalls. */
    private static final int KEEP_BYTES = 32 << 20;
    private static final long MAX_HORIZON_NANOS = 3_600_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final InetSocketAddress admin;
    private final String token;
    private final int deadlineMillis;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    AdminFuzzCampaign(InetSocketAddress admin, String token, int deadlineMillis) {
        this.admin = admin;
        this.token = token;
        this.deadlineMillis = deadlineMillis;
    }

    /** Sends {@code requests} cases of the generator seeded with {@code seed}, checking the host every {@code batch}. */
    Report run(long seed, int requests, int batch, HostCheck host) throws Exception {
        AdminFuzz fuzz = new AdminFuzz(seed, token);
        Map<AdminFuzz.Family, Map<String, Integer>> counts = new EnumMap<>(AdminFuzz.Family.class);
        List<String> violations = new ArrayList<>();
        long slowestNanos = 0;
        String slowestCase = "";
        int armed = 0;
        for (int i = 1; i <= requests; i++) {
            AdminFuzz.Case call = fuzz.next();
            Answer answer = send(call);
            counts.computeIfAbsent(call.family(), family -> new TreeMap<>()).merge(answer.outcome(), 1, Integer::sum);
            if (answer.elapsedNanos() > slowestNanos) {
                slowestNanos = answer.elapsedNanos();
                slowestCase = call.describe();
            }
            if (answer.timedOut()) {
                violations.add("no answer and not closed within " + deadlineMillis + " ms: " + call.describe());
            }
            for (int status : answer.statuses()) {
                if (status >= 500) {
                    violations.add(status + ": " + call.describe() + " -> " + shorten(answer.text()));
                }
            }
            if (call.aimsAtArm() && answer.statuses().contains(200)) {
                if (call.mayArm()) {
                    armed++;
                    String insane = insanePlan(answer.text());
                    if (insane != null) {
                        violations.add("armed a plan that " + insane + ": " + call.describe() + " -> " + shorten(answer.text()));
                    }
                } else {
                    violations.add("armed by a call that may not arm: " + call.describe() + " -> " + shorten(answer.text()));
                }
                disarm();
            }
            if (i % batch == 0 || i == requests) {
                String problem = betweenBatches(host);
                if (problem != null) {
                    violations.add("after request " + i + ": " + problem);
                }
            }
        }
        return new Report(requests, counts, violations, slowestNanos, slowestCase, armed);
    }

    /** What is wrong with the plan a 200 from /arm answered (its horizon, offsets, durations), or null. */
    static String insanePlan(String answer) {
        int start = answer.indexOf('{');
        JsonNode plan;
        try {
            plan = JSON.readTree(answer.substring(Math.max(0, start)));
        } catch (JsonProcessingException e) {
            return "answered what is not JSON (" + e.getOriginalMessage() + ")";
        }
        long horizonNanos = plan.path("horizon_ns").asLong(-1);
        if (horizonNanos <= 0 || horizonNanos > MAX_HORIZON_NANOS) {
            return "has horizon_ns " + horizonNanos;
        }
        for (JsonNode stall : plan.path("stalls")) {
            long offsetNanos = stall.path("offset_ns").asLong(-1);
            long durationNanos = stall.path("duration_ns").asLong(-1);
            if (offsetNanos < 0 || durationNanos <= 0 || offsetNanos > horizonNanos - durationNanos) {
                return "has a stall at offset_ns " + offsetNanos + " for duration_ns " + durationNanos + " in horizon_ns " + horizonNanos;
            }
        }
        return null;
    }

    private static String shorten(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private record Answer(List<Integer> statuses, String outcome, String text, boolean timedOut, long elapsedNanos) {
    }

    private Answer send(AdminFuzz.Case call) throws Exception {
        if (call.raw() != null) {
            RawHttp.Outcome outcome = RawHttp.exchange(admin, call.raw(), deadlineMillis, KEEP_BYTES);
            String label = outcome.status() >= 0 ? Integer.toString(outcome.status()) : outcome.reset() ? "reset" : "closed";
            return new Answer(outcome.statuses(), label, outcome.text(), outcome.timedOut(), outcome.elapsedNanos());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + call.path())).timeout(Duration.ofMillis(deadlineMillis))
                .method(call.method(), call.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(call.body()));
        call.headers().forEach(request::header);
        long startNanos = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(List.of(response.statusCode()), Integer.toString(response.statusCode()), response.body(), false,
                    System.nanoTime() - startNanos);
        } catch (HttpTimeoutException e) {
            return new Answer(List.of(), "timeout", e.toString(), true, System.nanoTime() - startNanos);
        } catch (IOException e) {
            return new Answer(List.of(), "closed", e.toString(), false, System.nanoTime() - startNanos);
        }
    }

    private void disarm() throws Exception {
        HttpResponse<String> response = http.send(authorized("/disarm").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("POST /disarm answered " + response.statusCode() + ": " + response.body());
        }
    }

    private String betweenBatches(HostCheck host) throws Exception {
        HttpResponse<String> health = http.send(authorized("/health").GET().build(), HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() != 200 || !health.body().contains("\"armed\":false")) {
            return "GET /health answered " + health.statusCode() + ": " + health.body();
        }
        HttpResponse<String> stalls = http.send(authorized("/stalls").GET().build(), HttpResponse.BodyHandlers.ofString());
        if (stalls.statusCode() != 200 || !stalls.body().contains("\"armed\":false")) {
            return "GET /stalls answered " + stalls.statusCode() + ": " + stalls.body();
        }
        return host.check();
    }

    private HttpRequest.Builder authorized(String path) {
        return HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofMillis(deadlineMillis))
                .header("Authorization", "Bearer " + token);
    }

    private String base() {
        return "http://127.0.0.1:" + admin.getPort();
    }
}
