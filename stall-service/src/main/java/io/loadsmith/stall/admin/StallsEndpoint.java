package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.control.StallPage;
import io.loadsmith.stall.control.StallRecord;

import java.io.IOException;
import java.util.Map;

/** {@code GET /stalls?run_id=&since_index=}: one page of the stall windows, of a run or of all. */
final class StallsEndpoint implements Endpoint {

    private final StallController controller;

    StallsEndpoint(StallController controller) {
        this.controller = controller;
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException, AdminError {
        String runId = null;
        long sinceIndex = 0;
        for (Map.Entry<String, String> parameter : RequestReader.query(exchange).entrySet()) {
            switch (parameter.getKey()) {
                case "run_id" -> runId = parameter.getValue();
                case "since_index" -> sinceIndex = RequestReader.nonNegativeLong("since_index", parameter.getValue());
                default -> throw AdminError.badRequest(parameter.getKey()
                        + ": unknown parameter (GET /stalls takes run_id, since_index)");
            }
        }
        StallPage page = controller.stalls(runId, sinceIndex);
        String requestedRun = runId;
        boolean armed = controller.armed();
        String lastRunId = controller.lastRunId();
        AdminResponses.sendJson(exchange, 200, out -> {
            AdminJson.writeNullableString(out, "run_id", requestedRun);
            AdminJson.writeNullableString(out, "last_run_id", lastRunId);
            out.writeBooleanField("armed", armed);
            out.writeNumberField("next_index", page.nextIndex());
            out.writeBooleanField("more", page.more());
            out.writeNumberField("dropped", page.dropped());
            out.writeArrayFieldStart("stalls");
            for (StallRecord stall : page.stalls()) {
                AdminJson.writeStall(out, stall);
            }
            out.writeEndArray();
        });
    }
}
