package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.control.ArmResult;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import io.loadsmith.stall.plan.StallPlan;

import java.io.IOException;
import java.util.Optional;

/** {@code POST /arm}: arms the plan of a JSON body, unless the service refuses it (409), and lists its windows. */
final class ArmEndpoint implements Endpoint {

    private final AdminConfig config;
    private final StallController controller;
    private final ArmRequests armRequests;

    ArmEndpoint(AdminConfig config, StallController controller) {
        this.config = config;
        this.controller = controller;
        this.armRequests = new ArmRequests(config);
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException, AdminError {
        RequestReader.requireJson(exchange);
        byte[] body = RequestReader.readBody(exchange, config.maxBodyBytes());
        ArmRequests.ArmRequest request = armRequests.parseRequest(body);
        StallPlan plan = request.plan();
        // the service's refusals are about its gates (nothing instrumented yet): a freeze needs none
        Optional<String> refusal = plan.kind() == StallKind.FREEZE ? Optional.empty() : refusal();
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
        AdminResponses.sendJson(exchange, 200, out -> {
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

    /** The service's reason to refuse arming now, if any: a check that fails refuses too. */
    private Optional<String> refusal() {
        try {
            Optional<String> reason = config.armRefusal().get();
            return reason == null ? Optional.empty() : reason.filter(text -> !text.isBlank());
        } catch (RuntimeException e) {
            return Optional.of("arming is refused: the service's arm check failed (" + e + ")");
        }
    }
}
