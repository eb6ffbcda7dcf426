package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.control.StallRecord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** {@code POST /disarm}: ends the armed run, if any, and lists its stall windows. */
final class DisarmEndpoint implements Endpoint {

    private final AdminConfig config;
    private final StallController controller;

    DisarmEndpoint(AdminConfig config, StallController controller) {
        this.config = config;
        this.controller = controller;
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException, AdminError {
        byte[] body = RequestReader.readBody(exchange, config.maxBodyBytes());
        if (!new String(body, StandardCharsets.UTF_8).isBlank()) {
            RequestReader.requireJson(exchange);
            if (!new String(body, StandardCharsets.UTF_8).replaceAll("\\s", "").equals("{}")) {
                throw AdminError.badRequest("body: /disarm takes no fields (send nothing or {})");
            }
        }
        String runId = controller.armed() ? controller.lastRunId() : null;
        List<StallRecord> stalls = controller.disarm();
        if (runId != null && config.pauses() != null) {
            config.pauses().runEnded(controller.clock().nanoTime());
        }
        AdminResponses.sendJson(exchange, 200, out -> {
            out.writeBooleanField("disarmed", runId != null);
            AdminJson.writeNullableString(out, "run_id", runId);
            out.writeArrayFieldStart("stalls");
            for (StallRecord stall : stalls) {
                AdminJson.writeStall(out, stall);
            }
            out.writeEndArray();
        });
    }
}
