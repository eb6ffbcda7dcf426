package io.loadsmith.tester.agentclient;

import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.plan.PlannedStall;
import io.loadsmith.stall.plan.StallKind;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The client against the real admin server of stall-service, in this JVM, on a free port. */
class AdminClientIT {

    private static final long MS = 1_000_000L;

    @Test
    void arm_wait_and_fetch_the_recorded_stall_of_the_run_on_the_same_clock() throws Exception {
        try (StallController controller = new StallController(Clock.system(), new StallGate());
             AdminServer server = AdminServer.start(AdminConfig.builder().port(0).token("t0ken").build(), controller)) {
            AdminClient admin = AdminClient.of(URI.create("http://127.0.0.1:" + server.address().getPort()), "t0ken");

            ClockOffset offset = ClockProbe.measure(Clock.system(), admin::serverNanos, 5);
            AdminClient.Armed armed = admin.arm(List.of(new PlannedStall(0, 80 * MS, 30 * MS)), StallKind.BLOCK);
            List<ServerStall> stalls = await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> admin.stalls(armed.runId()), recorded -> !recorded.isEmpty());

            // one process, one clock: the offset is within the probe's round trip of 0
            assertThat(Math.abs(offset.offsetNanos())).isLessThanOrEqualTo(offset.uncertaintyNanos());
            assertThat(armed.stalls()).containsExactly(new PlannedStall(0, 80 * MS, 30 * MS));
            assertThat(stalls).hasSize(1);
            ServerStall stall = stalls.get(0);
            assertThat(stall.runId()).isEqualTo(armed.runId());
            assertThat(stall.plannedStartNanos()).isEqualTo(armed.armedAtNanos() + 80 * MS);
            assertThat(stall.startNanos()).isGreaterThanOrEqualTo(stall.plannedStartNanos());
            assertThat(stall.endNanos() - stall.startNanos()).isGreaterThanOrEqualTo(30 * MS);
            assertThat(admin.health().path("armed").isBoolean()).isTrue();
            assertThatThrownBy(() -> AdminClient.of(admin.base(), "wrong").serverNanos())
                    .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(401));
        }
    }
}
