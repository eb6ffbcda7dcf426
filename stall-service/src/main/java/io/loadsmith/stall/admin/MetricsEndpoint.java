package io.loadsmith.stall.admin;

import com.sun.net.httpserver.HttpExchange;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.control.StallTotals;
import io.loadsmith.stall.observe.PauseObserver;
import io.loadsmith.stall.observe.PauseSource;
import io.loadsmith.stall.observe.PauseTotals;

import java.io.IOException;

/** {@code GET /metrics}: the controller's totals and the pause observer's, in Prometheus' text format. */
final class MetricsEndpoint implements Endpoint {

    private static final String SAFEPOINT = PrometheusText.label("source", PauseSource.SAFEPOINT.wireName());
    private static final String SLEEPER = PrometheusText.label("source", PauseSource.SLEEPER.wireName());

    private final StallController controller;
    /** Null: the host runs no pause observer. */
    private final PauseObserver observer;

    MetricsEndpoint(StallController controller, PauseObserver observer) {
        this.controller = controller;
        this.observer = observer;
    }

    @Override
    public void answer(HttpExchange exchange) throws IOException {
        PrometheusText text = new PrometheusText();
        stallMetrics(text, controller.totals());
        text.metric("loadsmith_pause_observer", "gauge", "1 while a pause observer runs, else 0.",
                PrometheusText.flag(observer != null));
        if (observer != null) {
            text.metric("loadsmith_pause_observer_jfr", "gauge",
                    "1 while the pause observer reads safepoints through JFR, else 0 (the sleeper alone).",
                    PrometheusText.flag("on".equals(observer.jfrStatus())));
            pauseMetrics(text, observer.totals());
        }
        AdminResponses.send(exchange, 200, PrometheusText.CONTENT_TYPE, text.bytes());
    }

    private void stallMetrics(PrometheusText text, StallTotals totals) {
        text.metric("loadsmith_stalls_total", "counter", "Stall windows that have ended.", Long.toString(totals.stalls()))
                .metric("loadsmith_stalled_seconds_total", "counter", "Time spent in stall windows, in seconds.",
                        PrometheusText.seconds(totals.stalledNanos()))
                .metric("loadsmith_held_requests_total", "counter", "Requests the gate held in a stall window.",
                        Long.toString(totals.held()))
                .metric("loadsmith_stall_records_dropped_total", "counter",
                        "Stall records dropped to keep memory bounded (the totals above still count them).",
                        Long.toString(totals.droppedRecords()))
                .metric("loadsmith_armed", "gauge", "1 while a stall plan is armed, else 0.",
                        PrometheusText.flag(controller.armed()))
                .metric("loadsmith_stall_active", "gauge",
                        "1 while a stall window is open (requests arriving are held), else 0.",
                        PrometheusText.flag(controller.stalling()));
    }

    private static void pauseMetrics(PrometheusText text, PauseTotals totals) {
        text.header("loadsmith_pauses_total", "counter",
                        "Real pauses observed (safepoints through JFR, late wake-ups of the sleeper thread).")
                .sample("loadsmith_pauses_total", SAFEPOINT, Long.toString(totals.safepoints()))
                .sample("loadsmith_pauses_total", SLEEPER, Long.toString(totals.sleeper()))
                .header("loadsmith_paused_seconds_total", "counter", "Time in observed pauses, in seconds.")
                .sample("loadsmith_paused_seconds_total", SAFEPOINT, PrometheusText.seconds(totals.safepointNanos()))
                .sample("loadsmith_paused_seconds_total", SLEEPER, PrometheusText.seconds(totals.sleeperNanos()))
                .metric("loadsmith_host_pauses_total", "counter",
                        "Sleeper pauses that overlap no safepoint (the host: a stop, CPU starvation, throttling).",
                        Long.toString(totals.hostSleeper()))
                .metric("loadsmith_pause_records_dropped_total", "counter",
                        "Pause records dropped to keep memory bounded (the totals above still count them).",
                        Long.toString(totals.droppedRecords()));
    }
}
