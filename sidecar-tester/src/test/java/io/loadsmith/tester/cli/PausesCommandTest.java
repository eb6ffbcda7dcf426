package io.loadsmith.tester.cli;

import io.loadsmith.tester.profile.PauseProfile;
import io.loadsmith.tester.profile.PauseProfiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.loadsmith.tester.cli.VerifyCommandTest.execute;
import static org.assertj.core.api.Assertions.assertThat;

class PausesCommandTest {

    @TempDir
    Path dir;

    @Test
    void from_gc_log_writes_the_profile_and_says_what_it_read() throws Exception {
        Path log = dir.resolve("gc.log");
        Files.write(log, List.of("[0.020s][info][gc] Using Parallel",
                "[1.000s][info][gc] GC(0) Pause Young (Allocation Failure) 10M->2M(30M) 4.000ms",
                "[2.000s][info][gc] GC(1) Pause Full (System.gc()) 10M->1M(30M) 16.000ms",
                "a line cut by a rotation"));
        Path out = dir.resolve("profile.json");

        var ran = execute("pauses", "from-gc-log", log.toString(), "--out", out.toString());

        assertThat(ran.exit()).as(ran.err()).isZero();
        assertThat(ran.out()).contains(log + " (Parallel, uptime, offsets +-1 ms): 2 pauses {gc=2} over 2.0 s, 20.0 ms"
                + " paused in all (1.00%), the longest 16.000 ms");
        assertThat(ran.out()).contains("1 lines not understood", "  line 4: a line cut by a rotation", "wrote " + out);
        PauseProfile profile = PauseProfiles.read(out);
        assertThat(profile.pauses()).extracting(PauseProfile.Pause::label)
                .containsExactly("Parallel: Pause Young (Allocation Failure)", "Parallel: Pause Full (System.gc())");
    }

    @Test
    void a_missing_or_unusable_log_is_bad_input_with_one_line() throws Exception {
        var missing = execute("pauses", "from-gc-log", dir.resolve("none.log").toString(), "--out", "p.json");
        assertThat(missing.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(missing.err()).contains("loadsmith: " + dir.resolve("none.log") + ": no such file");

        Path log = dir.resolve("gc.log");
        Files.writeString(log, "[info][gc] Using G1\n");
        var unusable = execute("pauses", "from-gc-log", log.toString(), "--out", dir.resolve("p.json").toString());
        assertThat(unusable.exit()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unusable.err()).contains("loadsmith: " + log + ":1: no uptime decoration").doesNotContain("Exception");
        assertThat(dir.resolve("p.json")).doesNotExist();
    }
}
