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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The GC logs of a real JVM under each collector, on JDK 17 (the {@code uptime} decoration, 1 ms) and JDK 25
 * ({@code uptimenanos}): {@link GcPausesApp} calls System.gc() three times and prints the uptime around each
 * call; every call's pauses must be in the profile inside those brackets, named by the collector, and nothing
 * of the log left unread. The profile written is checked against docs/schemas/pause-profile.schema.json.
 */
class GcLogReaderIT {

    static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");
    static final Path SCHEMA = Path.of("").toAbsolutePath().getParent().resolve("docs/schemas/pause-profile.schema.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<Arguments> jvms() {
        List<Arguments> all = new ArrayList<>();
        for (String collector : List.of("Serial", "Parallel", "G1", "Z", "Shenandoah")) {
            all.add(Arguments.of("17", Path.of(System.getProperty("java.home")), collector, "uptime"));
            all.add(Arguments.of("25", JDK25, collector, "uptimenanos"));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "JDK {0}, {2}")
    @MethodSource("jvms")
    void every_system_gc_is_a_pause_of_the_profile_inside_its_bracket(String jdk, Path javaHome, String collector,
                                                                      String decoration) throws Exception {
        Path java = javaHome.resolve("bin/java");
        assumeTrue(Files.isExecutable(java), "skipped: no JDK at " + javaHome);
        Path log = dir.resolve("gc.log");
        List<long[]> brackets = run(java, collector, log, decoration);

        PauseProfile profile = GcLogReader.read(log);

        assertThat(profile.origin().collector()).isEqualTo(collector);
        assertThat(profile.origin().decoration()).isEqualTo(decoration);
        assertThat(profile.unread().lines()).as("lines not understood: %s", profile.unread().first()).isZero();
        assertThat(profile.pauses()).isNotEmpty().allSatisfy(p -> assertThat(p.durationMs()).isPositive());
        assertThat(profile.pauses()).isSortedAccordingTo((a, b) -> Double.compare(a.offsetMs(), b.offsetMs()));
        double slack = profile.resolutionMs() + 2; // getUptime() is whole ms, and not quite the log's origin
        boolean stopTheWorld = !collector.equals("Z") && !collector.equals("Shenandoah");
        for (long[] bracket : brackets) {
            List<PauseProfile.Pause> inside = profile.pauses().stream()
                    .filter(p -> p.source().equals("gc") && p.offsetMs() >= bracket[0] - slack
                            && p.offsetMs() + p.durationMs() <= bracket[1] + slack).toList();
            assertThat(inside).as("collector pauses inside System.gc() at %d-%d ms uptime", bracket[0], bracket[1])
                    .isNotEmpty().allSatisfy(p -> assertThat(p.label()).startsWith(collector));
            if (stopTheWorld) {
                assertThat(inside).anySatisfy(p -> assertThat(p.label()).endsWith("Pause Full (System.gc())"));
            }
        }
        Path out = dir.resolve("profile.json");
        PauseProfiles.write(out, profile);
        assertThat(schemaProblems(JSON.readTree(out.toFile()))).isEmpty();
        assertThat(PauseProfiles.read(out)).isEqualTo(profile);
    }

    /** Runs GcPausesApp logging to log; its System.gc() brackets as [before, after] uptime ms. */
    private static List<long[]> run(Path java, String collector, Path log, String decoration)
            throws IOException, InterruptedException {
        Process app = new ProcessBuilder(java.toString(), "-Xmx64m", "-XX:+Use" + collector + "GC",
                "-Xlog:gc*,safepoint:file=" + log + ":" + decoration + ",level,tags",
                "-cp", System.getProperty("java.class.path"), GcPausesApp.class.getName())
                .redirectErrorStream(true).start();
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
