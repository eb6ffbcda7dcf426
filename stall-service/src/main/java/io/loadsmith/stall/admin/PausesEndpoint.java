package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.observe.PausePage;
import io.loadsmith.stall.observe.PauseWindow;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** {@code GET /pauses?since_index=}: one page of the pause observer's windows; an empty one without an observer. */
final class PausesEndpoint implements Endpoint {

    /** Null: the host runs no pause observer. */
    private final PauseObserver observer;

    PausesEndpoint(PauseObserver observer) {
        this.observer = observer;
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException, AdminError {
        long sinceIndex = 0;
        for (Map.Entry<String, String> parameter : RequestReader.query(exchange).entrySet()) {
            if (!parameter.getKey().equals("since_index")) {
                throw AdminError.badRequest(parameter.getKey() + ": unknown parameter (GET /pauses takes since_index)");
            }
            sinceIndex = RequestReader.nonNegativeLong("since_index", parameter.getValue());
        }
        PausePage page = observer == null ? new PausePage(List.of(), sinceIndex, false, 0) : observer.pauses(sinceIndex);
        AdminResponses.sendJson(exchange, 200, out -> {
            out.writeBooleanField("observing", observer != null);
            out.writeStringField("jfr", observer == null ? "off" : observer.jfrStatus());
            out.writeNumberField("next_index", page.nextIndex());
            out.writeBooleanField("more", page.more());
            out.writeNumberField("dropped", page.dropped());
            out.writeArrayFieldStart("pauses");
            for (PauseWindow pause : page.pauses()) {
                AdminJson.writePause(out, pause);
            }
            out.writeEndArray();
        });
    }
}
