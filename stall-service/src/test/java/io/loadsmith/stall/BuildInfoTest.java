package io.loadsmith.stall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class BuildInfoTest {

    @Test
    void the_build_wrote_the_project_version() {
        assertThat(BuildInfo.current().version()).matches("[0-9]+\\.[0-9]+\\.[0-9]+.*");
        assertThat(BuildInfo.current().commit()).matches("[0-9a-f]{7,}|unknown");
    }

    @Test
    void an_unfilled_placeholder_or_a_missing_value_reads_as_unknown() {
        Properties properties = new Properties();
        properties.setProperty("version", "0.2.0");
        properties.setProperty("commit", "${git.commit.id.abbrev}");

        assertThat(BuildInfo.of(properties)).isEqualTo(new BuildInfo("0.2.0", "unknown"));
        assertThat(BuildInfo.of(new Properties())).isEqualTo(new BuildInfo("unknown", "unknown"));
    }

    @Test
    void describe_names_the_version_and_the_commit() {
        assertThat(new BuildInfo("0.2.0", "3f2a9c1").describe()).isEqualTo("0.2.0 (commit 3f2a9c1)");
    }
}
