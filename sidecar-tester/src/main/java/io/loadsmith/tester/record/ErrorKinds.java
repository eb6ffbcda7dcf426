package io.loadsmith.tester.record;

import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.transport.Outcome;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Errors counted by kind: by {@link Outcome}, and those of {@link Outcome#GRPC_STATUS} by their gRPC status
 * (an exchange's status is then the gRPC status code). Not thread-safe: the recorder's thread writes it.
 */
public final class ErrorKinds {

    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final GrpcStatus[] STATUSES = GrpcStatus.values();

    private final long[] byOutcome = new long[OUTCOMES.length];
    private final long[] byGrpcStatus = new long[STATUSES.length];

    /** One error that ended with {@code outcome} and {@code status}. */
    void count(Outcome outcome, int status) {
        if (outcome == Outcome.GRPC_STATUS) {
            byGrpcStatus[GrpcStatus.ofCode(status).code()]++;
        } else {
            byOutcome[outcome.ordinal()]++;
        }
    }

    void add(ErrorKinds other) {
        for (int i = 0; i < byOutcome.length; i++) {
            byOutcome[i] += other.byOutcome[i];
        }
        for (int i = 0; i < byGrpcStatus.length; i++) {
            byGrpcStatus[i] += other.byGrpcStatus[i];
        }
    }

    void reset() {
        Arrays.fill(byOutcome, 0);
        Arrays.fill(byGrpcStatus, 0);
    }

    /**
     * The counts by kind, those with none left out: an outcome by its name in lower case ({@code timeout},
     * {@code http_status}), a gRPC status by its own name ({@code NOT_FOUND}, {@code UNAVAILABLE}); outcomes
     * first, each group in its enum's order. Empty when there was no error.
     */
    public Map<String, Long> asMap() {
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (Outcome outcome : OUTCOMES) {
            if (byOutcome[outcome.ordinal()] > 0) {
                kinds.put(outcome.name().toLowerCase(Locale.ROOT), byOutcome[outcome.ordinal()]);
            }
        }
        for (GrpcStatus status : STATUSES) {
            if (byGrpcStatus[status.code()] > 0) {
                kinds.put(status.name(), byGrpcStatus[status.code()]);
            }
        }
        return kinds;
    }
}
