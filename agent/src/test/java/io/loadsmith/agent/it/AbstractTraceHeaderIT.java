package io.loadsmith.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.stall.gate.ReplicaHeader;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The server contract again with {@code trace-header=on,replica=...}, and what the option adds: every
 * response that passed the entry gate carries {@code Loadsmith-Replica: <replica>;recv=<ns>;sent=<ns>},
 * the gate's own clock reads (the child's {@code System.nanoTime()}, the same clock as this JVM's on
 * Linux), and a request held by a stall shows the hold between them.
 */
abstract class AbstractTraceHeaderIT extends AbstractServerStallIT {

    static final String REPLICA = "replica-a";
    private static final Pattern HEADER = Pattern.compile(Pattern.quote(REPLICA) + ";recv=(\\d+);sent=(\\d+)");

    @Override
    protected String agentOptions() {
        return "admin=127.0.0.1:0,trace-header=on,replica=" + REPLICA;
    }

    /** The gate's two clock reads of a response's header. */
    record Traced(long recvNanos, long sentNanos) {
    }

    private static Traced traced(RawHttp.Timed response) {
        String header = response.header(ReplicaHeader.NAME);
        assertThat(header).as("%s in %s", ReplicaHeader.NAME, response.head()).isNotNull();
        Matcher m = HEADER.matcher(header);
        assertThat(m.matches()).as(header).isTrue();
        return new Traced(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }

    @Test
    void a_gated_response_names_its_replica_and_the_moments_the_gate_took_and_let_go_of_it() throws Exception {
        long beforeNanos = System.nanoTime();
        RawHttp.Timed response = RawHttp.get(port, "/fast");
        long afterNanos = System.nanoTime();

        assertThat(response.status()).isEqualTo(200);
        Traced traced = traced(response);
        assertThat(traced.recvNanos()).isBetween(beforeNanos, afterNanos);
        assertThat(traced.sentNanos()).isBetween(traced.recvNanos(), afterNanos);
    }

    @Test
    void a_request_sent_into_a_stall_was_let_go_when_the_stall_ended() throws Exception {
        RawHttp.Timed response;
        long armedAt;
        try (RawHttp.Call during = RawHttp.prepare(port, "/fast")) {
            armedAt = admin.armOne(300, 300);
            // half-way into the window: it is held if the window opens up to 150 ms late (a busy box)
            response = during.sendAt(armedAt + 450 * NANOS_PER_MILLI);
        }
        List<Admin.Window> windows = admin.awaitStalls(armedAt + 5_000 * NANOS_PER_MILLI);

        assertThat(windows).hasSize(1);
        Admin.Window window = windows.get(0);
        Traced traced = traced(response);
        assertThat(traced.recvNanos()).as("taken by the gate inside the window").isBetween(window.startNanos(), window.endNanos());
        assertThat(traced.sentNanos()).as("let go at the window's end")
                .isGreaterThanOrEqualTo(Math.min(window.endNanos(), window.startNanos() + 300 * NANOS_PER_MILLI)
                        - (long) (EARLY_TOLERANCE_MILLIS * NANOS_PER_MILLI));
    }

    @Test
    void health_names_the_replica_and_says_the_header_is_on() throws Exception {
        Admin.Reply health = admin.get("/health");

        assertThat(health.body()).contains("\"replica\":\"" + REPLICA + "\"").contains("\"trace_header\":\"on\"");
    }
}
