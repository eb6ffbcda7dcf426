package io.loadsmith.tester.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The GC logs of a real JVM under each collector on JDK 17 and 25, each run logging at once with the three
 * time decorations ({@code uptime} and {@code uptimemillis}, 1 ms; {@code uptimenanos}): {@link GcPausesApp}
 * allocates in a 32 MB heap (collections close together), then calls System.gc() three times and prints the
 * uptime around each call. In every decoration's profile every call's pauses must be inside those brackets,
 * named by the collector, no two pauses may overlap or touch, and nothing of the log is left unread; ZGC's and
 * Shenandoah's phases must each be on their own safepoint (the one the JVM names after the phase); and the
 * millisecond profiles must give the nanosecond one's pauses, labels and durations, each offset within the
 * resolution. The profile written is checked against docs/schemas/pause-profile.schema.json.
 */
class GcLogReaderIT {

    static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
    static final Path SCHEMA = Path.of("").toAbsolutePath().getParent().resolve("docs/schemas/pause-profile.schema.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static final List<String> DECORATIONS = List.of("uptime", "uptimemillis", "uptimenanos");

    /**
     * The safepoint operation each of ZGC's and Shenandoah's phases runs in, as JDK 17 and 25 name them (the
     * label without its parenthesised cause, but for ZGC's {@code (Major)}).
     */
    static final Map<String, String> OWN_SAFEPOINT = Map.ofEntries(
            Map.entry("Z: Pause Mark Start", "ZMarkStart"),
            Map.entry("Z: Pause Mark End", "ZMarkEnd"),
            Map.entry("Z: Pause Relocate Start", "ZRelocateStart"),
            Map.entry("Z young: Pause Mark Start", "ZMarkStartYoung"),
            Map.entry("Z young: Pause Mark Start (Major)", "ZMarkStartYoungAndOld"),
            Map.entry("Z young: Pause Mark End", "ZMarkEndYoung"),
            Map.entry("Z young: Pause Relocate Start", "ZRelocateStartYoung"),
            Map.entry("Z old: Pause Mark End", "ZMarkEndOld"),
            Map.entry("Z old: Pause Relocate Start", "ZRelocateStartOld"),
            Map.entry("Shenandoah: Pause Init Mark", "ShenandoahInitMark"),
            Map.entry("Shenandoah: Pause Final Mark", "ShenandoahFinalMarkStartEvac"),
            Map.entry("Shenandoah: Pause Final Roots", "ShenandoahFinalRoots"),
            Map.entry("Shenandoah: Pause Init Update Refs", "ShenandoahInitUpdateRefs"),
            Map.entry("Shenandoah: Pause Final Update Refs", "ShenandoahFinalUpdateRefs"),
            Map.entry("Shenandoah: Pause Degenerated GC", "ShenandoahDegeneratedGC"),
            Map.entry("Shenandoah: Pause Full", "ShenandoahFullGC"));
    private static final Pattern SAFEPOINT_LINE = Pattern.compile("Safepoint \"([^\"]+)\".*\\bTotal: \\d+ ns.*");

    static Stream<Arguments> jvms() {
        List<Arguments> all = new ArrayList<>();
        for (String collector : List.of("Serial", "Parallel", "G1", "Z", "Shenandoah")) {
            all.add(Arguments.of("17", Path.of(System.getProperty("java.home")), collector));
            all.add(Arguments.of("25", JDK25, collector));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "JDK {0}, {2}")
    @MethodSource("jvms")
    void every_decoration_gives_each_pause_once_with_its_own_label_inside_its_bracket(String jdk, Path javaHome,
                                                                                     String collector) throws Exception {
        Path java = javaHome.resolve("bin/java");
        assumeTrue(Files.isExecutable(java), "skipped: no JDK at " + javaHome);
        List<long[]> brackets = run(java, collector);

        Map<String, PauseProfile> profiles = new LinkedHashMap<>();
        for (String decoration : DECORATIONS) {
            PauseProfile profile = GcLogReader.read(log(decoration));
            profiles.put(decoration, profile);
            assertThat(profile.origin().collector()).isEqualTo(collector);
            assertThat(profile.origin().decoration()).isEqualTo(decoration);
            assertThat(profile.unread().lines()).as("%s: lines not understood or not placed: %s", decoration,
                    profile.unread().first()).isZero();
            assertThat(profile.pauses()).isNotEmpty().allSatisfy(p -> assertThat(p.durationMs()).isPositive());
            assertApart(decoration, profile.pauses());
            assertInsideBrackets(collector, profile, brackets);
        }
        PauseProfile nanos = profiles.get("uptimenanos");
        if (collector.equals("Z") || collector.equals("Shenandoah")) {
            assertOwnSafepoints(nanos, safepointOps(log("uptimenanos")));
        }
        for (String decoration : List.of("uptime", "uptimemillis")) {
            PauseProfile millis = profiles.get(decoration);
            assertThat(millis.pauses()).as("%s against uptimenanos: source, label, duration", decoration)
                    .extracting(PauseProfile.Pause::source, PauseProfile.Pause::label, PauseProfile.Pause::durationMs)
                    .containsExactlyElementsOf(nanos.pauses().stream()
                            .map(p -> tuple(p.source(), p.label(), p.durationMs())).toList());
            for (int i = 0; i < nanos.pauses().size(); i++) {
                assertThat(millis.pauses().get(i).offsetMs()).as("%s: pauses[%d]'s offset", decoration, i)
                        .isCloseTo(nanos.pauses().get(i).offsetMs(), within(millis.resolutionMs()));
            }
        }
        Path out = dir.resolve("profile.json");
        PauseProfiles.write(out, profiles.get("uptime"));
        assertThat(schemaProblems(JSON.readTree(out.toFile()))).isEmpty();
        assertThat(PauseProfiles.read(out)).isEqualTo(profiles.get("uptime"));
    }

    private Path log(String decoration) {
        return dir.resolve("gc-" + decoration + ".log");
    }

    /** Each pause starts after the one before it ended. */
    private static void assertApart(String decoration, List<PauseProfile.Pause> pauses) {
        for (int i = 1; i < pauses.size(); i++) {
            PauseProfile.Pause before = pauses.get(i - 1);
            assertThat(Math.round(pauses.get(i).offsetMs() * 1e6))
                    .as("%s: pauses[%d] %s starts after pauses[%d] %s ends", decoration, i, pauses.get(i), i - 1, before)
                    .isGreaterThan(Math.round(before.offsetMs() * 1e6) + Math.round(before.durationMs() * 1e6));
        }
    }

    private static void assertInsideBrackets(String collector, PauseProfile profile, List<long[]> brackets) {
        double slack = profile.resolutionMs() + 2; // getUptime() is whole ms, and not quite the log's origin
        boolean stopTheWorld = !collector.equals("Z") && !collector.equals("Shenandoah");
        for (long[] bracket : brackets) {
            List<PauseProfile.Pause> inside = profile.pauses().stream()
                    .filter(p -> p.source().equals("gc") && p.offsetMs() >= bracket[0] - slack
                            && p.offsetMs() + p.durationMs() <= bracket[1] + slack).toList();
            assertThat(inside).as("%s: collector pauses inside System.gc() at %d-%d ms uptime",
                            profile.origin().decoration(), bracket[0], bracket[1])
                    .isNotEmpty().allSatisfy(p -> assertThat(p.label()).startsWith(collector));
            if (stopTheWorld) {
                assertThat(inside).anySatisfy(p -> assertThat(p.label()).endsWith("Pause Full (System.gc())"));
            }
        }
    }

    /**
     * ZGC and Shenandoah: one pause per safepoint line, in the log's order, and each phase on the safepoint
     * named after it, alone.
     */
    private static void assertOwnSafepoints(PauseProfile profile, List<String> ops) {
        assertThat(profile.pauses()).hasSameSizeAs(ops);
        for (int i = 0; i < ops.size(); i++) {
            PauseProfile.Pause pause = profile.pauses().get(i);
            if (pause.source().equals("safepoint")) {
                assertThat(pause.label()).isEqualTo("Safepoint \"" + ops.get(i) + "\"");
                assertThat(OWN_SAFEPOINT).as("a phase's safepoint without its phase").doesNotContainValue(ops.get(i));
                continue;
            }
            String phase = pause.label().replaceAll(" \\((?!Major\\))[^)]*\\)", "");
            assertThat(OWN_SAFEPOINT).as("pauses[%d] %s", i, pause).containsKey(phase);
            assertThat(OWN_SAFEPOINT.get(phase)).as("pauses[%d] %s: its safepoint", i, pause).isEqualTo(ops.get(i));
        }
    }

    /** The operations of the log's safepoint lines, in its order. */
    private static List<String> safepointOps(Path log) throws IOException {
        List<String> ops = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher m = SAFEPOINT_LINE.matcher(line.substring(line.lastIndexOf("] ") + 2));
            if (m.matches()) {
                ops.add(m.group(1));
            }
        }
        return ops;
    }

    /**
     * Runs GcPausesApp under collector, logging to one file per decoration; its System.gc() brackets as
     * [before, after] uptime ms.
     */
    private List<long[]> run(Path java, String collector) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx32m", "-XX:+Use" + collector + "GC"));
        for (String decoration : DECORATIONS) {
            command.add("-Xlog:gc*,safepoint:file=" + log(decoration) + ":" + decoration + ",level,tags");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), GcPausesApp.class.getName(), "400"));
        Process app = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(app.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(app.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(app.exitValue()).as(output).isZero();
        List<long[]> brackets = new ArrayList<>();
        output.lines().filter(l -> l.startsWith("gc ")).forEach(l -> {
            String[] f = l.split(" ");
            brackets.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])});
        });
        assertThat(brackets).as(output).hasSize(3);
        return brackets;
    }

    private static List<String> schemaProblems(JsonNode json) throws IOException {
        var schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Files.readString(SCHEMA));
        List<String> problems = new ArrayList<>();
        for (Error error : schema.validate(json)) {
            problems.add(error.getInstanceLocation() + ": " + error.getMessage());
        }
        return problems;
    }
}
