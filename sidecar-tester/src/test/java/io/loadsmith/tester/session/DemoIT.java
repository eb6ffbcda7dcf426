package io.loadsmith.tester.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.experiment.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: the real agent on the reference scored service in a child JVM, three testers with stalls on,
 * a few seconds each. results.json must carry every per-stall field for every tester.
 */
class DemoIT {

    private static final long S = 1_000_000_000L;
    private static final List<String> STALL_FIELDS = List.of("index", "start_ns", "end_ns", "held", "sent_during",
            "intended_during", "in_flight_at_start", "overlapping");

    @Test
    void three_testers_meet_the_same_stalls_and_every_stall_is_counted_for_each(@TempDir Path out) throws Exception {
        ServiceProcess.Jars jars = jars();
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Demo.DemoOptions options = new Demo.DemoOptions(100, 2, 4 * S, 100, 100_000_000L, 1 * S, 7, 4, 20_000_000L,
                false);
        StringWriter console = new StringWriter();

        Path file;
        try (ServiceProcess service = ServiceProcess.start(jars, 4, List.of(), out.resolve("service.log"), 180)) {
            file = Demo.run(service, options, out, new PrintWriter(console, true));
        }

        JsonNode results = new ObjectMapper().readTree(file.toFile());
        assertThat(results.at("/schema").asText()).isEqualTo("loadsmith/results/v1");
        assertThat(results.at("/runs")).hasSize(3);
        for (JsonNode run : results.get("runs")) {
            assertThat(run.get("stall").asBoolean()).isTrue();
            assertThat(run.get("stalls")).as("stalls of %s", run.get("name")).isNotEmpty();
            for (JsonNode stall : run.get("stalls")) {
                for (String field : STALL_FIELDS) {
                    assertThat(stall.has(field)).as("%s of a stall of %s", field, run.get("name")).isTrue();
                }
                assertThat(stall.get("end_ns").asLong()).isGreaterThan(stall.get("start_ns").asLong());
            }
            assertThat(run.at("/stall_summary/stalls_met").asInt()).isPositive();
            assertThat(run.at("/stall_summary/missing")).isEmpty();
        }
        JsonNode closed = results.at("/runs/0");
        assertThat(closed.get("name").asText()).isEqualTo("closed-1");
        // a closed loop sends inside a window only when the answer before it passed the gate just before it
        // closed (and was still on its way), or when its own send timestamp was read late on a starved CPU:
        // on average at most one per stall, far fewer than the open loop's rate x stall length
        long closedInside = closed.at("/stall_summary/sent_during_total").asLong();
        assertThat(closedInside).isLessThanOrEqualTo(closed.at("/stall_summary/stalls_met").asLong());
        assertThat(closedSendOffsetsInsideStalls(out, closed)).hasSize((int) closedInside);
        JsonNode open = results.at("/runs/2");
        assertThat(open.at("/stall_summary/sent_during_total").asLong()).isPositive();
        assertThat(results.at("/alignment/series")).hasSize(3);
        assertThat(results.at("/alignment/bin_ms").asDouble()).isEqualTo(5.0);
        assertThat(console.toString()).contains("requests sent inside each stall window").contains("Reading:");
    }

    @Test
    void over_grpc_the_three_testers_call_the_grpc_port_and_meet_the_stalls(@TempDir Path out) throws Exception {
        ServiceProcess.Jars jars = jars();
        assertThat(jars.missing()).as("jars the test needs").isNull();
        Demo.DemoOptions options = new Demo.DemoOptions(100, 2, 2 * S, 50, 100_000_000L, 500_000_000L, 7, 4,
                20_000_000L, true);
        StringWriter console = new StringWriter();

        Path file;
        try (ServiceProcess service = ServiceProcess.start(jars, 4, Demo.serviceArgs(options),
                out.resolve("service.log"), 180)) {
            assertThat(service.grpcUrl()).as("the gRPC address the service printed").isNotNull();
            file = Demo.run(service, options, out, new PrintWriter(console, true));
        }

        JsonNode results = new ObjectMapper().readTree(file.toFile());
        assertThat(results.at("/runs")).hasSize(3);
        for (JsonNode run : results.get("runs")) {
            assertThat(run.at("/counts/sent").asLong()).as("calls of %s", run.get("name")).isPositive();
            // every answer is checked: grpc-status OK and the customer's expected score
            assertThat(run.at("/counts/errors").asLong()).as("%s; %s", run.get("name"), console).isZero();
            assertThat(run.at("/steps/0/name").asText()).isEqualTo("GRPC scoring.Scorer/Score");
            assertThat(run.at("/stall_summary/stalls_met").asInt()).as("stalls met by %s", run.get("name")).isPositive();
        }
        JsonNode closed = results.at("/runs/0");
        assertThat(closed.at("/stall_summary/sent_during_total").asLong())
                .isLessThanOrEqualTo(closed.at("/stall_summary/stalls_met").asLong());
        assertThat(results.at("/runs/2/stall_summary/sent_during_total").asLong()).isPositive();
    }

    /** Offsets of sends inside stall windows, recounted from the request log (must agree with stall_summary). */
    private static List<Long> closedSendOffsetsInsideStalls(Path out, JsonNode run) throws java.io.IOException {
        List<Long> offsets = new java.util.ArrayList<>();
        try (io.loadsmith.tester.record.RequestLog.Reader records = io.loadsmith.tester.record.RequestLog.read(
                out.resolve(run.get("requests_log").asText()))) {
            while (records.hasNext()) {
                long sent = records.next().sentNanos();
                for (JsonNode stall : run.get("stalls")) {
                    // sent_during_total counts the stalls met (inside the counted span) only
                    if (stall.get("met").asBoolean()
                            && sent >= stall.get("start_ns").asLong() && sent < stall.get("end_ns").asLong()) {
                        offsets.add(sent - stall.get("start_ns").asLong());
                    }
                }
            }
        }
        return offsets;
    }

    private static ServiceProcess.Jars jars() {
        ServiceProcess.Jars jars = ServiceProcess.Jars.under(ServiceProcess.findRoot(Path.of("")));
        String agent = System.getenv("LOADSMITH_AGENT_JAR");
        return agent == null || agent.isBlank() ? jars : new ServiceProcess.Jars(Path.of(agent), jars.service());
    }
}
