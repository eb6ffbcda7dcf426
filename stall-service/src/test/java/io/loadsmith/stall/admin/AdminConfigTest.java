package io.loadsmith.stall.admin;

import io.loadsmith.stall.BuildInfo;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminConfigTest {

    @Test
    void the_defaults_are_loopback_port_7070_no_token_and_the_documented_caps() {
        AdminConfig config = AdminConfig.builder().build();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isEqualTo(7070);
        assertThat(config.token()).isNull();
        assertThat(config.tokenFile()).isNull();
        assertThat(config.maxStall()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.maxHorizon()).isEqualTo(Duration.ofHours(1));
        assertThat(config.maxStalledShare()).isEqualTo(0.5);
        assertThat(config.maxBodyBytes()).isEqualTo(65_536);
        assertThat(config.healthDetails().get()).isEqualTo(Map.of());
        assertThat(config.armRefusal().get()).isEqualTo(Optional.empty());
        assertThat(config.version()).isEqualTo(BuildInfo.current().version());
    }

    @Test
    void a_blank_token_means_no_token_and_a_token_is_stripped() {
        assertThat(AdminConfig.builder().token("  ").build().token()).isNull();
        assertThat(AdminConfig.builder().token(" abc\n").build().token()).isEqualTo("abc");
    }

    @Test
    void nonsense_settings_are_refused_naming_the_setting() {
        assertThatThrownBy(() -> AdminConfig.builder().port(70_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("port: must be 0-65535 (got 70000)");
        assertThatThrownBy(() -> AdminConfig.builder().maxStall(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxStall: must be > 0 (got PT0S)");
        assertThatThrownBy(() -> AdminConfig.builder().maxHorizon(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxHorizon: must be > 0 (got PT-1S)");
        assertThatThrownBy(() -> AdminConfig.builder().maxStalledShare(1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxStalledShare: must be in (0, 1] (got 1.5)");
        assertThatThrownBy(() -> AdminConfig.builder().maxBodyBytes(10))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxBodyBytes: must be >= 256 (got 10)");
    }
}
