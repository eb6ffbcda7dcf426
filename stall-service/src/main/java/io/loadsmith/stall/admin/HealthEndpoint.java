package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.BuildInfo;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.observe.PauseTotals;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /health}: the service's own fields, then the service's details ({@link AdminConfig#healthDetails},
 * which cannot replace them; a supplier that throws is reported as {@code details_error}).
 */
final class HealthEndpoint implements Endpoint {

    private final AdminConfig config;
    private final StallController controller;
    private final long pid;

    HealthEndpoint(AdminConfig config, StallController controller, long pid) {
        this.config = config;
        this.controller = controller;
        this.pid = pid;
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("status", "ok");
        fields.put("version", config.version());
        fields.put("commit", BuildInfo.current().commit());
        fields.put("armed", controller.armed());
        fields.put("last_run_id", controller.lastRunId());
        fields.put("pid", pid);
        fields.put("pauses", pauseCounts());
        fields.put("freeze", controller.freezer().status());
        String freezeFailure = controller.lastFreezeFailure();
        if (freezeFailure != null) {
            fields.put("freeze_failure", freezeFailure);
        }
        try {
            Map<String, Object> details = config.healthDetails().get();
            if (details != null) {
                details.forEach(fields::putIfAbsent);
            }
        } catch (RuntimeException e) {
            fields.put("details_error", e.toString());
        }
        AdminResponses.sendJson(exchange, 200, out -> {
            for (Map.Entry<String, Object> field : fields.entrySet()) {
                out.writeFieldName(field.getKey());
                AdminJson.writeValue(out, field.getValue(), 0);
            }
        });
    }

    private Map<String, Object> pauseCounts() {
        PauseObserver observer = config.pauses();
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("observing", observer != null);
        if (observer != null) {
            PauseTotals totals = observer.totals();
            counts.put("mode", observer.whenArmedOnly() ? "armed" : "always");
            counts.put("running", observer.running());
            counts.put("jfr", observer.jfrStatus());
            counts.put("safepoints", totals.safepoints());
            counts.put("sleeper", totals.sleeper());
            counts.put("host", totals.hostSleeper());
            counts.put("dropped", totals.droppedRecords());
            counts.put("sleeper_park_ms", observer.sleeperParkNanos() / 1_000_000);
            counts.put("records_kept", observer.recordsKept());
            counts.put("records_max", observer.maxRecords());
            Map<String, Object> jfrMemory = observer.jfrMemory();
            if (jfrMemory != null) {
                counts.put("jfr_memory", jfrMemory);
            }
        }
        return counts;
    }
}
