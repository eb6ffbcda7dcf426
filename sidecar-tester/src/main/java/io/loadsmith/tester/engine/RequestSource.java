package io.loadsmith.tester.engine;

import io.loadsmith.tester.transport.RequestSpec;

import java.net.URI;
import java.util.Arrays;

/**
 * What to send: for arrival k, step position s, the request. The CLI plugs journeys, templates and data
 * feeders in here; the default ({@link #get(URI)}) is one GET of one URL per arrival.
 *
 * <p>An arrival is one journey: its first step (position 0) is intended at the arrival time, each later
 * step at the previous step's end plus {@link #thinkNanos}. Arrival numbers: open model, the schedule's
 * index k (0, 1, 2, ...); closed model, the order in which journeys start; paced model,
 * {@code iteration * connections + connection}. To keep a schedule identical however work is split, draw
 * anything random per arrival from {@link io.loadsmith.tester.schedule.ArrivalStreams} keyed by the
 * arrival number, never from a stream shared across arrivals.
 *
 * <p>Called on the scheduler's thread only.
 */
public interface RequestSource {

    /**
     * The request for step {@code position} (0 = the first) of arrival {@code arrival}, or null when the
     * journey has no such step (it ends). A journey also ends at the first step that does not end OK.
     *
     * @param connection the connection that will send it (closed, paced), -1 for the open model; the
     *                   returned spec should carry it
     */
    RequestSpec request(long arrival, int position, int connection);

    /** Think time before step {@code position} (>= 1) of arrival {@code arrival}, in nanoseconds. */
    default long thinkNanos(long arrival, int position) {
        return 0;
    }

    /** A name for a step id (the {@link RequestSpec#step()} the source gives), for results and hlog tags. */
    default String stepName(int step) {
        return "step" + step;
    }

    /** One GET of uri per arrival, step id 0 named {@code get}. */
    static RequestSource get(URI uri) {
        RequestSpec open = RequestSpec.get(uri, -1, 0);
        return new RequestSource() {
            private RequestSpec[] byConnection = new RequestSpec[0];

            // synchronized: the lanes of a run on several loops ask from their own threads, and the array grows
            @Override
            public synchronized RequestSpec request(long arrival, int position, int connection) {
                if (position != 0) {
                    return null;
                }
                if (connection < 0) {
                    return open;
                }
                if (connection >= byConnection.length) {
                    byConnection = Arrays.copyOf(byConnection, connection + 1);
                }
                RequestSpec spec = byConnection[connection];
                return spec != null ? spec : (byConnection[connection] = open.onConnection(connection));
            }

            @Override
            public String stepName(int step) {
                return "get";
            }
        };
    }
}
