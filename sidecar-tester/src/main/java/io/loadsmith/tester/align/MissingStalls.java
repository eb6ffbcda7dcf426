package io.loadsmith.tester.align;

import io.loadsmith.stall.plan.PlannedStall;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks that every planned stall that fell inside the counted span really happened. A stall is due when
 * its planned window ends by the end of the counted span; stalls planned past the end are not missing.
 */
public final class MissingStalls {

    private MissingStalls() {
    }

    /**
     * The indices of the planned stalls that were due but are not among the recorded ones, in plan order.
     *
     * @param planned            the plan's stalls (offsets from the moment of arming)
     * @param armedAtTesterNanos the moment of arming, on the tester's clock
     * @param countEndNanos      the end of the counted span, on the tester's clock
     * @param recordedIndices    the indices {@code GET /stalls} reported for the run
     */
    public static List<Integer> missing(List<PlannedStall> planned, long armedAtTesterNanos, long countEndNanos,
                                        Collection<Integer> recordedIndices) {
        Set<Integer> recorded = new HashSet<>(recordedIndices);
        List<Integer> missing = new ArrayList<>();
        for (PlannedStall stall : planned) {
            boolean due = armedAtTesterNanos + stall.endOffsetNanos() <= countEndNanos;
            if (due && !recorded.contains(stall.index())) {
                missing.add(stall.index());
            }
        }
        return missing;
    }

    /** The warning a run carries when stalls are missing, or null when none is. */
    public static String warning(List<Integer> missing) {
        if (missing.isEmpty()) {
            return null;
        }
        return missing.size() + " planned stall(s) inside the counted span did not happen (indices " + missing
                + "): was the agent attached to this service, and is its gate on the request path?";
    }
}
