package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class AttachDiagnosisTest {

    @Test
    void a_jvm_started_with_attach_disabled_is_named_with_the_fix() {
        assertThat(AttachDiagnosis.forbiddenByFlags("42", "java -XX:+DisableAttachMechanism -jar app.jar"))
                .isEqualTo("process 42 was started with -XX:+DisableAttachMechanism: it accepts no attach at all. "
                        + "Restart it without that flag, or load the agent at start with -javaagent:loadsmith-agent.jar");
    }

    @Test
    void a_jvm_that_refuses_dynamic_agents_is_named_with_the_fix() {
        assertThat(AttachDiagnosis.forbiddenByFlags("42", "java -XX:-EnableDynamicAgentLoading -jar app.jar"))
                .startsWith("process 42 was started with -XX:-EnableDynamicAgentLoading: it refuses agents loaded while it runs.");
    }

    @Test
    void ordinary_flags_forbid_nothing() {
        assertThat(AttachDiagnosis.forbiddenByFlags("42", "java -Xmx1g -jar app.jar")).isNull();
    }

    @Test
    void another_users_process_names_both_users_and_the_sudo_command() {
        assertThat(AttachDiagnosis.differentUser("42", "app", "me"))
                .isEqualTo("process 42 runs as user app but you are me: a JVM accepts an attach only from its own user "
                        + "(or root). Run the launcher as that user: sudo -u app java -jar loadsmith-agent.jar attach 42");
    }

    @Test
    void java_21_and_later_get_the_dynamic_loading_note_unless_the_flag_is_given() {
        assertThat(AttachDiagnosis.dynamicLoadingNote("42", 17, "")).isNull();
        assertThat(AttachDiagnosis.dynamicLoadingNote("42", 25, "java -XX:+EnableDynamicAgentLoading")).isNull();
        assertThat(AttachDiagnosis.dynamicLoadingNote("42", 21, "java -jar app.jar"))
                .contains("WARNING: A Java agent has been loaded dynamically")
                .contains("-XX:+EnableDynamicAgentLoading");
    }

    @Test
    void a_process_that_does_not_exist_is_reported_as_such() {
        assertThat(AttachDiagnosis.explainFailure("999999999", "", new IOException("No such process")))
                .isEqualTo("no process 999999999 on this host; see: java -jar loadsmith-agent.jar list");
    }

    @Test
    void this_jdk_has_the_attach_module() {
        assertThat(AttachDiagnosis.missingAttachModule()).isNull();
    }

    @Test
    void feature_versions_are_read_from_the_specification_version() {
        assertThat(AttachClient.featureVersion("17")).isEqualTo(17);
        assertThat(AttachClient.featureVersion("1.8")).isEqualTo(8);
        assertThat(AttachClient.featureVersion("25")).isEqualTo(25);
    }
}
