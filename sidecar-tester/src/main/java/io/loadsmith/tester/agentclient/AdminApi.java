package io.loadsmith.tester.agentclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.SeededPlanSpec;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;

import java.net.URI;
import java.util.List;

/**
 * What a run asks of an agent's admin API (docs/admin-api.md): its clock, its health, arming and
 * disarming, and the stalls and pauses it recorded. {@link AdminClient} is the one over HTTP; a test can
 * hand a run agents of its own. Every failure is an {@link AdminException} naming the agent; status 0 means
 * it did not answer.
 */
public interface AdminApi {

    /** The admin address (names the agent in results and messages). */
    URI base();

    /** The server's clock ({@code now_ns} of {@code GET /clock}); use with {@link ClockProbe}. */
    long serverNanos() throws AdminException;

    /** {@code GET /health} as it answered ({@code version}, {@code commit}, {@code replica}, ...). */
    JsonNode health() throws AdminException;

    /** Arms a seeded plan under a run id of the caller's (null: the agent makes one). */
    AdminClient.Armed arm(SeededPlanSpec spec, StallKind kind, String runId) throws AdminException;

    /**
     * Arms an explicit list of (offset, duration) windows, in order and apart (their indices are ignored),
     * under a run id of the caller's (null: the agent makes one).
     */
    AdminClient.Armed arm(List<PlannedStall> windows, StallKind kind, String runId) throws AdminException;

    /**
     * Arms a plan of no stalls over {@code horizonNanos} under a run id of the caller's (null: the agent makes
     * one): everything an armed plan runs in the service (its pause observer over the horizon) but nothing is
     * held; the control half of a paired run.
     */
    AdminClient.Armed armNoStalls(long horizonNanos, StallKind kind, String runId) throws AdminException;

    /** Arms {@code plan}: by its seed when it is seeded, else by its windows, or over its horizon if it has none. */
    default AdminClient.Armed arm(StallPlan plan, String runId) throws AdminException {
        if (plan.seededSpec().isPresent()) {
            return arm(plan.seededSpec().get(), plan.kind(), runId);
        }
        return plan.stalls().isEmpty() ? armNoStalls(plan.horizonNanos(), plan.kind(), runId)
                : arm(plan.stalls(), plan.kind(), runId);
    }

    /** Cancels pending stalls (a stall in progress ends now) and returns the windows of the run so far. */
    List<ServerStall> disarm() throws AdminException;

    /** One page of the stalls that have happened, of run {@code runId} (null: every run's), from {@code sinceIndex}. */
    AdminClient.StallPage stalls(String runId, long sinceIndex) throws AdminException;

    /** Every stall of a run that has happened, following the pages. */
    List<ServerStall> stalls(String runId) throws AdminException;

    /** Every pause the agent still keeps, following the pages. */
    AdminClient.PausePage pauses() throws AdminException;
}
