package io.loadsmith.stall.control;

import io.loadsmith.stall.plan.PlannedStall;

import java.util.List;

/**
 * What {@link StallController#arm} did.
 *
 * @param runId        identifies this arming in {@link StallRecord#runId()} and {@code GET /stalls?run_id=}
 * @param armedAtNanos the moment of arming on the controller's clock: stall i is planned to start at
 *                     {@code armedAtNanos + stalls.get(i).offsetNanos()}
 * @param stalls       the planned windows, in start order
 */
public record ArmResult(String runId, long armedAtNanos, List<PlannedStall> stalls) {

    public ArmResult {
        stalls = List.copyOf(stalls);
    }
}
