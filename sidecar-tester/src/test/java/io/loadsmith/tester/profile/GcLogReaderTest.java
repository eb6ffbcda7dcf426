package io.loadsmith.tester.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reader's rules on small logs; {@link GcLogReaderIT} reads the logs of real JVMs. */
class GcLogReaderTest {

    @TempDir
    Path dir;

    private PauseProfile read(String... lines) throws IOException {
        Path log = dir.resolve("gc.log");
        Files.write(log, List.of(lines));
        return GcLogReader.read(log);
    }

    @Test
    void a_collection_inside_a_safepoint_takes_the_safepoints_window_and_the_collectors_label() throws IOException {
        PauseProfile profile = read(
                "[1000000000ns][info][gc] Using G1",
                "[2000000000ns][info][gc,start] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
                "[2003000000ns][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 2.500ms",
                "[2003100000ns][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 1 ns, "
                        + "Reaching safepoint: 400000 ns, At safepoint: 2700000 ns, Total: 3100000 ns",
                "[2500000000ns][info][safepoint] Safepoint \"Cleanup\", Time since last: 1 ns, Reaching safepoint: 1000 ns, "
                        + "At safepoint: 1000 ns, Total: 2000 ns");

        assertThat(profile.pauses()).containsExactly(
                new PauseProfile.Pause(2000.0, 3.1, "gc", "G1: Pause Young (Normal) (G1 Evacuation Pause)"),
                new PauseProfile.Pause(2499.998, 0.002, "safepoint", "Safepoint \"Cleanup\""));
        assertThat(profile.origin()).isEqualTo(new PauseProfile.Origin("gc-log", dir.resolve("gc.log").toString(), "G1",
                "uptimenanos", "jvm-start", null));
        assertThat(profile.resolutionMs()).isEqualTo(1e-6);
        assertThat(profile.spanMs()).isEqualTo(2500.0);
    }

    @Test
    void without_safepoint_lines_a_collectors_pause_ends_at_its_line() throws IOException {
        PauseProfile profile = read(
                "[0.010s][info][gc] Using The Z Garbage Collector",
                "[1.500s][info][gc,phases] GC(3) y: Pause Mark Start 0.250ms",
                "[1.900s][info][gc,phases] GC(3) O: Pause Relocate Start 1.000ms",
                "[2.000s][info][gc] GC(4) Pause Degenerated GC (Outside of Cycle) 60M->1M(64M) 1.606ms");

        assertThat(profile.pauses()).extracting(PauseProfile.Pause::label).containsExactly(
                "Z young: Pause Mark Start", "Z old: Pause Relocate Start", "Z: Pause Degenerated GC (Outside of Cycle)");
        assertThat(profile.pauses().get(0).offsetMs()).isEqualTo(1499.75);
        assertThat(profile.origin().decoration()).isEqualTo("uptime");
        assertThat(profile.resolutionMs()).isEqualTo(1.0);
    }

    @Test
    void two_collections_in_one_safepoint_are_one_pause_with_both_labels() throws IOException {
        PauseProfile profile = read(
                "[100ms][info][gc] Using Shenandoah",
                "[200ms][info][gc] GC(1) Pause Init Mark (unload classes) 1.000ms",
                "[201ms][info][gc] GC(1) Pause Final Roots 0.500ms",
                "[202ms][info][safepoint] Safepoint \"ShenandoahInitMark\", Time since last: 1 ns, Total: 4000000 ns");

        assertThat(profile.pauses()).containsExactly(new PauseProfile.Pause(198.0, 4.0, "gc",
                "Shenandoah: Pause Init Mark (unload classes) + Shenandoah: Pause Final Roots"));
    }

    @Test
    void lines_without_a_decoration_are_counted_and_the_first_kept() throws IOException {
        PauseProfile profile = read("[0.001s][info][gc] Using Serial", "garbage 1", "", "[0.002s][info][gc,heap] Heap",
                "garbage 2", "garbage 3", "garbage 4", "garbage 5", "garbage 6");

        assertThat(profile.unread().lines()).isEqualTo(6);
        assertThat(profile.unread().first()).hasSize(GcLogReader.UNREAD_KEPT)
                .first().isEqualTo(new PauseProfile.Line(2, "garbage 1"));
    }

    @Test
    void a_pause_or_safepoint_line_of_a_form_not_known_is_counted_unread_not_dropped() throws IOException {
        PauseProfile profile = read("[0.001s][info][gc] Using G1",
                "[0.002s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) quickly",
                "[0.003s][info][gc] y: Pause Mark Start",
                "[0.004s][info][safepoint] Safepoint \"G1CollectForAllocation\", took a while",
                "[0.005s][info][gc] GC(2) Concurrent Mark Cycle 1.000ms",
                "[0.006s][info][gc] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 3.000ms");

        assertThat(profile.pauses()).hasSize(1);
        assertThat(profile.unread().lines()).isEqualTo(3);
        assertThat(profile.unread().first()).extracting(PauseProfile.Line::line).containsExactly(2L, 3L, 4L);
    }

    @Test
    void two_runs_in_one_file_are_refused_at_the_line_where_the_uptime_goes_back() {
        assertThatThrownBy(() -> read("[5.000s][info][gc] Using G1", "[0.004s][info][gc] Using G1"))
                .isInstanceOf(ProfileException.class)
                .hasMessageEndingWith("gc.log:2: the uptime went back from 5.000 s to 0.004 s (more than 1 s): the file holds more than "
                        + "one JVM's run; split it where the JVM restarted");
    }

    @Test
    void lines_a_little_out_of_order_are_one_run() throws IOException {
        PauseProfile profile = read("[1000000000ns][info][gc] Using G1",
                "[2000000500ns][info][gc,heap] GC(0) Eden regions: 1->0(2)",
                "[2000000000ns][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(256M) 1.000ms");

        assertThat(profile.pauses()).hasSize(1);
        assertThat(profile.spanMs()).isEqualTo(2000.0005);
    }

    @Test
    void a_log_without_uptime_or_without_decorations_is_refused_saying_how_to_log() {
        assertThatThrownBy(() -> read("[2026-12-02T10:00:00.000+0000][info][gc] Using G1"))
                .hasMessageContaining("gc.log:1: no uptime decoration")
                .hasMessageContaining("-Xlog:gc*,safepoint:file=gc.log:uptime,level,tags");
        assertThatThrownBy(() -> read("2026-12-02T10:00:00.000+0000: [GC (Allocation Failure) 1M->0M, 0.001 secs]"))
                .hasMessageContaining("gc.log: no line of a unified JVM log");
    }

    @Test
    void a_profile_that_is_not_one_is_refused_naming_the_file() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"schema\": \"other/1\", \"pauses\": []}");
        assertThatThrownBy(() -> PauseProfiles.read(bad)).isInstanceOf(ProfileException.class)
                .hasMessage(bad + ": schema: expected \"loadsmith.pause-profile/1\" (got \"other/1\"): not a pause profile");
        Files.writeString(bad, "{\"schema\": \"loadsmith.pause-profile/1\", \"span_ms\": 1, \"resolution_ms\": 0,"
                + " \"pauses\": [{\"offset_ms\": 1}]}");
        assertThatThrownBy(() -> PauseProfiles.read(bad)).hasMessageStartingWith(bad + ": pauses[0].duration_ms: ");
        Files.writeString(bad, "{\"schema\": \"loadsmith.pause-profile/1\", \"span_ms\": 1, \"resolution_ms\": 0,"
                + " \"pauses\": [{\"offset_ms\": 1, \"duration_ms\": 0}]}");
        assertThatThrownBy(() -> PauseProfiles.read(bad))
                .hasMessage(bad + ": pauses[0]: offset_ms must be >= 0 and duration_ms > 0 (got 1.0 and 0.0)");
        Files.writeString(bad, "{\"schema\": \n[");
        assertThatThrownBy(() -> PauseProfiles.read(bad)).hasMessageStartingWith(bad + ":2: not JSON");
    }
}
