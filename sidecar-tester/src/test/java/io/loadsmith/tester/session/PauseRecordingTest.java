package io.loadsmith.tester.session;

import io.loadsmith.tester.profile.PauseProfile;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PauseRecordingTest {

    @Test
    void a_host_window_that_overlaps_a_safepoint_is_that_safepoints_stop_and_is_left_out() {
        PauseProfile.Pause safepoint = new PauseProfile.Pause(100.0, 4.0, "gc", "G1New (System.gc())");
        PauseProfile.Pause lateHost = new PauseProfile.Pause(99.5, 5.0, "host", "unattributed");
        PauseProfile.Pause freeze = new PauseProfile.Pause(300.0, 50.0, "host", "unattributed");
        PauseProfile.Pause touching = new PauseProfile.Pause(104.0, 2.0, "host", "unattributed");
        assertThat(PauseRecording.withoutOverlappingHost(List.of(lateHost, safepoint, touching, freeze)))
                .containsExactly(safepoint, touching, freeze);
    }
}
