package io.loadsmith.tester.align;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AlignmentJsonTest {

    private static final long MS = 1_000_000L;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static RunAlignment aligned() {
        StallAlignment alignment = new StallAlignment(List.of(new StallWindow(0, 1000 * MS, 1100 * MS, 3)),
                0, 3000 * MS, AlignedBins.forStall(100 * MS), 10, 1);
        alignment.add(990 * MS, 990 * MS, 1101 * MS);
        alignment.add(1050 * MS, 1050 * MS, 1102 * MS);
        return alignment.finish();
    }

    @Test
    void a_run_gets_every_per_stall_field_and_its_summary() throws Exception {
        ObjectNode run = MAPPER.createObjectNode().put("name", "open");

        AlignmentJson.writeRun(run, aligned(), List.of());

        assertThat(MAPPER.writeValueAsString(run)).isEqualTo("{\"name\":\"open\",\"stalls\":[{\"index\":0,"
                + "\"start_ns\":1000000000,\"end_ns\":1100000000,\"held\":3,\"sent_during\":1,\"intended_during\":1,"
                + "\"in_flight_at_start\":1,\"overlapping\":2,\"met\":true}],\"stall_summary\":{\"stalls_met\":1,"
                + "\"sent_during_total\":1,\"overlapping_share\":1.0,\"p99_can_see_stalls\":true,\"sent\":2,"
                + "\"overlapping\":2,\"missing\":[]}}");
    }

    @Test
    void missing_stalls_are_flagged_in_the_summary_and_warned_about() {
        ObjectNode run = MAPPER.createObjectNode();
        run.putArray("warnings").add("earlier warning");

        AlignmentJson.writeRun(run, aligned(), List.of(4));

        assertThat(run.at("/stall_summary/missing/0").asInt()).isEqualTo(4);
        assertThat(run.get("warnings")).hasSize(2);
        assertThat(run.at("/warnings/1").asText()).startsWith("1 planned stall(s) inside the counted span did not happen");
    }

    @Test
    void the_top_level_alignment_has_one_series_and_one_scatter_per_run() throws Exception {
        ObjectNode node = AlignmentJson.alignment(List.of(new AlignmentJson.NamedRun("open", aligned())));

        assertThat(node.get("stall_ms").asDouble()).isEqualTo(100.0);
        assertThat(node.get("bin_ms").asDouble()).isEqualTo(5.0);
        assertThat(node.get("from_ms").asDouble()).isEqualTo(-100.0);
        assertThat(node.get("to_ms").asDouble()).isEqualTo(200.0);
        assertThat(node.at("/series/0/run").asText()).isEqualTo("open");
        assertThat(node.at("/series/0/stalls_met").asInt()).isEqualTo(1);
        assertThat(node.at("/series/0/sends_per_bin")).hasSize(60);
        assertThat(node.at("/series/0/sends_per_bin/18").asDouble()).isEqualTo(1.0);
        assertThat(node.at("/series/0/sends_per_bin/30").asDouble()).isEqualTo(1.0);
        assertThat(MAPPER.writeValueAsString(node.at("/scatter/0"))).isEqualTo(
                "{\"run\":\"open\",\"points\":[[-10.0,111.0],[50.0,52.0]]}");
    }

    @Test
    void runs_binned_differently_cannot_share_one_plot() {
        StallAlignment other = new StallAlignment(List.of(), 0, 1, AlignedBins.forStall(10 * MS), 0, 1);
        assertThatThrownBy(() -> AlignmentJson.alignment(List.of(new AlignmentJson.NamedRun("a", aligned()),
                new AlignmentJson.NamedRun("b", other.finish())))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("run b was binned as");
    }

    @Test
    void milliseconds_are_rounded_to_the_microsecond() {
        assertThat(AlignmentJson.ms(1_234_567)).isEqualTo(1.235);
        assertThat(AlignmentJson.ms(-1_234_567)).isEqualTo(-1.235);
    }
}
