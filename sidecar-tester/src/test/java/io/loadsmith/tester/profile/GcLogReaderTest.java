package io.loadsmith.tester.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    private static Path excerpt(String name) throws IOException {
        try {
            return Path.of(GcLogReaderTest.class.getResource(name).toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
    }

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
                "[100ms][info][gc] Using G1",
                "[200ms][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 24M->24M(32M) 1.000ms",
                "[204ms][info][gc] GC(2) Pause Full (G1 Compaction Pause) 30M->13M(32M) 3.500ms",
                "[204ms][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 1 ns, Total: 5000000 ns");

        assertThat(profile.pauses()).containsExactly(new PauseProfile.Pause(199.0, 5.0, "gc",
                "G1: Pause Young (Normal) (G1 Evacuation Pause) + G1: Pause Full (G1 Compaction Pause)"));
    }

    /**
     * The case a user found (JDK 25, ZGC, {@code uptime}): a safepoint of another operation ends in the same
     * millisecond as the collector's line, and the collector's own safepoint, whose line follows, seems to
     * start before it ended. The lines are the user's, their totals rounded.
     */
    @Test
    void a_zgc_phase_at_millisecond_stamps_is_labelled_on_the_safepoint_whose_line_follows_it() throws IOException {
        PauseProfile profile = read(
                "[0.010s][info][gc] Using The Z Garbage Collector",
                "[0.929s][info][safepoint] Safepoint \"CleanClassLoaderDataMetaspaces\", Time since last: 1 ns, "
                        + "Reaching safepoint: 1000 ns, At safepoint: 4039000 ns, Total: 4040000 ns",
                "[0.929s][info][gc,phases] GC(0) O: Pause Relocate Start 0.025ms",
                "[0.931s][info][safepoint] Safepoint \"ZRelocateStartOld\", Time since last: 1 ns, Reaching safepoint: "
                        + "2000 ns, At safepoint: 2173641 ns, Total: 2175641 ns");

        assertThat(profile.pauses()).containsExactly(
                new PauseProfile.Pause(924.96, 4.04, "safepoint", "Safepoint \"CleanClassLoaderDataMetaspaces\""),
                new PauseProfile.Pause(929.000001, 2.175641, "gc", "Z old: Pause Relocate Start"));
        assertThat(profile.unread().lines()).isZero();
    }

    /**
     * An excerpt of a real log (JDK 25, ZGC, -Xmx32m, one JVM logging both decorations): at 0.300 s the old
     * generation's Relocate Start and the young one's Mark Start, 0.26 ms apart, both end in the same
     * millisecond. Read by time alone, the second safepoint took the first's place and the two overlapped.
     */
    @Test
    void a_real_zgc_log_at_millisecond_stamps_gives_each_phase_its_own_safepoint_and_no_overlap() throws IOException {
        PauseProfile millis = GcLogReader.read(excerpt("zgc-jdk25-uptime.log"));
        PauseProfile nanos = GcLogReader.read(excerpt("zgc-jdk25-uptimenanos.log"));

        assertThat(millis.pauses()).containsExactly(
                new PauseProfile.Pause(296.820008, 0.179992, "gc", "Z young: Pause Mark Start"),
                new PauseProfile.Pause(297.967067, 0.032933, "gc", "Z young: Pause Mark End"),
                new PauseProfile.Pause(298.966777, 0.033223, "gc", "Z young: Pause Relocate Start"),
                new PauseProfile.Pause(299.946229, 0.053771, "gc", "Z old: Pause Relocate Start"),
                new PauseProfile.Pause(300.000001, 0.120459, "gc", "Z young: Pause Mark Start"));
        assertThat(nanos.pauses()).containsExactly(
                new PauseProfile.Pause(296.494698, 0.179992, "gc", "Z young: Pause Mark Start"),
                new PauseProfile.Pause(298.084262, 0.032933, "gc", "Z young: Pause Mark End"),
                new PauseProfile.Pause(298.96396, 0.033223, "gc", "Z young: Pause Relocate Start"),
                new PauseProfile.Pause(299.888624, 0.053771, "gc", "Z old: Pause Relocate Start"),
                new PauseProfile.Pause(300.078893, 0.120459, "gc", "Z young: Pause Mark Start"));
        assertThat(millis.unread().lines()).isZero();
        assertThat(nanos.unread().lines()).isZero();
    }

    @Test
    void a_collectors_line_that_the_next_safepoint_does_not_run_is_unread_and_the_safepoint_keeps_its_label()
            throws IOException {
        PauseProfile profile = read(
                "[0.010s][info][gc] Using The Z Garbage Collector",
                "[0.500s][info][gc,phases] GC(0) y: Pause Mark Start 0.010ms",
                "[0.500s][info][safepoint] Safepoint \"ZMarkStartYoungAndOld\", Time since last: 1 ns, Total: 20000 ns");

        assertThat(profile.pauses()).containsExactly(
                new PauseProfile.Pause(499.98, 0.02, "safepoint", "Safepoint \"ZMarkStartYoungAndOld\""));
        assertThat(profile.unread().lines()).isEqualTo(1);
        assertThat(profile.unread().first()).containsExactly(
                new PauseProfile.Line(2, "[0.500s][info][gc,phases] GC(0) y: Pause Mark Start 0.010ms"));
    }

    @Test
    void a_collectors_line_after_the_last_safepoint_line_keeps_its_own_window() throws IOException {
        PauseProfile profile = read(
                "[100ms][info][gc] Using Serial",
                "[200ms][info][safepoint] Safepoint \"Cleanup\", Time since last: 1 ns, Total: 1000000 ns",
                "[300ms][info][gc] GC(0) Pause Young (Allocation Failure) 9M->9M(30M) 2.000ms");

        assertThat(profile.pauses()).containsExactly(
                new PauseProfile.Pause(199.0, 1.0, "safepoint", "Safepoint \"Cleanup\""),
                new PauseProfile.Pause(298.0, 2.0, "gc", "Serial: Pause Young (Allocation Failure)"));
    }

    @ParameterizedTest(name = "{0} {1}{2} in {3}: {4}")
    @CsvSource(delimiterString = "|", nullValues = "-", textBlock = """
            Z          | -  | Pause Mark Start                            | ZMarkStart                    | true
            Z          | -  | Pause Relocate Start                        | ZRelocateStart                | true
            Z          | y  | Pause Mark Start                            | ZMarkStartYoung               | true
            Z          | Y  | Pause Mark Start (Major)                    | ZMarkStartYoungAndOld         | true
            Z          | O  | Pause Mark End                              | ZMarkEndOld                   | true
            Z          | O  | Pause Relocate Start                        | ZRelocateStartOld             | true
            Z          | O  | Pause Relocate Start                        | ZRelocateStartYoung           | false
            Z          | O  | Pause Relocate Start                        | CleanClassLoaderDataMetaspaces | false
            Z          | y  | Pause Mark End                              | ZMarkStartYoung               | false
            Z          | y  | Pause Mark Start                            | ZMarkStartYoungAndOld         | false
            Z          | Y  | Pause Mark Start                            | ZMarkStartYoung               | true
            Shenandoah | -  | Pause Init Mark (unload classes)            | ShenandoahInitMark            | true
            Shenandoah | -  | Pause Final Mark (unload classes)           | ShenandoahFinalMarkStartEvac  | true
            Shenandoah | -  | Pause Final Roots                           | ShenandoahFinalRoots          | true
            Shenandoah | -  | Pause Final Roots                           | ShenandoahInitMark            | false
            Shenandoah | -  | Pause Init Update Refs                      | ShenandoahInitUpdateRefs      | true
            Shenandoah | -  | Pause Final Update Refs                     | ShenandoahFinalUpdateRefs     | true
            Shenandoah | -  | Pause Degenerated GC (Outside of Cycle)     | ShenandoahDegeneratedGC       | true
            Shenandoah | -  | Pause Full                                  | ShenandoahFullGC              | true
            G1         | -  | Pause Young (Normal) (G1 Evacuation Pause)  | G1CollectForAllocation        | true
            G1         | -  | Pause Remark                                | G1PauseRemark                 | true
            G1         | -  | Pause Cleanup                               | G1PauseCleanup                | true
            G1         | -  | Pause Full (System.gc())                    | G1CollectFull                 | true
            G1         | -  | Pause Young (Concurrent Start) (Metadata GC Threshold) | CollectForMetadataAllocation | true
            G1         | -  | Pause Young (Normal) (G1 Evacuation Pause)  | Cleanup                       | false
            Serial     | -  | Pause Young (Allocation Failure)            | GenCollectForAllocation       | true
            Serial     | -  | Pause Full (System.gc())                    | GenCollectFull                | true
            Serial     | -  | Pause Full (Allocation Failure)             | SerialCollectForAllocation    | true
            Serial     | -  | Pause Full (System.gc())                    | SerialGCCollect               | true
            Serial     | -  | Pause Young (Allocation Failure)            | G1CollectForAllocation        | false
            Parallel   | -  | Pause Young (Allocation Failure)            | ParallelGCFailedAllocation    | true
            Parallel   | -  | Pause Full (System.gc())                    | ParallelGCSystemGC            | true
            Parallel   | -  | Pause Full (Ergonomics)                     | ParallelCollectForAllocation  | true
            Parallel   | -  | Pause Full (System.gc())                    | ParallelGCCollect             | true
            Parallel   | -  | Pause Full (Heap Dump Initiated GC)         | HeapDumper                    | true
            -          | -  | Pause Young (Allocation Failure)            | ParallelGCFailedAllocation    | true
            -          | -  | Pause Young (Allocation Failure)            | ICBufferFull                  | false
            """)
    void a_collectors_pause_runs_in_the_safepoint_operations_its_jdk_names_for_it(String collector, String generation,
                                                                                String phase, String op, boolean runs) {
        assertThat(GcLogReader.runs(op, collector, generation, phase)).isEqualTo(runs);
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
