package io.loadsmith.tester.experiment;

import io.loadsmith.tester.engine.RequestSource;
import io.loadsmith.tester.transport.RequestSpec;

import java.net.URI;

/**
 * Requests for the reference scored service: arrival k scores customer {@code k mod customers + 1}
 * ({@code GET /score/ID}), and any status but 200 counts as an error. Ids come from the arrival number,
 * so every tester scores the same customers in the same order.
 */
public final class ScoreRequests implements RequestSource {

    private final URI base;
    private final int customers;

    /**
     * @param base      the service's base URL
     * @param customers how many customers it has (ids 1..customers)
     */
    public ScoreRequests(URI base, int customers) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text : text + "/");
        this.customers = customers;
    }

    @Override
    public RequestSpec request(long arrival, int position, int connection) {
        if (position > 0) {
            return null;
        }
        long id = Math.floorMod(arrival, (long) customers) + 1;
        return new RequestSpec("GET", base.resolve("score/" + id), java.util.Map.of(), null,
                (status, body) -> status == 200 ? null : "status " + status + " (expected 200)", connection, 0);
    }

    @Override
    public String stepName(int step) {
        return "GET /score/{id}";
    }
}
