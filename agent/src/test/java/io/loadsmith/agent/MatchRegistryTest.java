package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.loadsmith.agent.target.Target;
import io.loadsmith.agent.target.jdkhttp.JdkHttpTarget;
import io.loadsmith.agent.target.jetty12.Jetty12Target;
import io.loadsmith.agent.target.netty.NettyTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MatchRegistryTest {

    private final Target jetty12 = Jetty12Target.target();
    private final MatchRegistry registry = new MatchRegistry(List.of(jetty12, NettyTarget.target()));

    @Test
    void arm_is_refused_while_nothing_is_gated() {
        assertThat(registry.armRefusal()).startsWith("nothing on a request path is instrumented: none of the enabled targets (jetty12, netty)");
        assertThat(registry.healthDetails()).containsEntry("request_path_instrumented", false);
    }

    @Test
    void a_transformed_class_is_listed_under_its_target_and_arm_goes_ahead() {
        ClassLoader loader = getClass().getClassLoader();
        registry.matched(jetty12, "org.eclipse.jetty.server.Server", loader);
        registry.transformed("org.eclipse.jetty.server.Server", loader);

        assertThat(registry.armRefusal()).isEmpty();
        assertThat(registry.healthDetails().get("targets")).isEqualTo(Map.of(
                "jetty12", List.of("org.eclipse.jetty.server.Server#handle(Request, Response, Callback) (entry)"),
                "netty", List.of()));
    }

    @Test
    void a_class_that_matched_but_failed_is_not_counted() {
        ClassLoader loader = getClass().getClassLoader();
        registry.matched(jetty12, "org.eclipse.jetty.server.Server", loader);
        registry.failed("org.eclipse.jetty.server.Server", new IllegalStateException("boom"));

        assertThat(registry.armRefusal()).isNotEmpty();
        assertThat(registry.healthDetails()).containsEntry("failures", Map.of("org.eclipse.jetty.server.Server", "java.lang.IllegalStateException: boom"));
    }

    @Test
    void the_jdk_servers_gates_do_not_count_while_only_the_admin_api_runs_on_that_server() {
        MatchRegistry onlyAdmin = new MatchRegistry(List.of(JdkHttpTarget.target()), () -> false);
        jdkServerGated(onlyAdmin);

        assertThat(onlyAdmin.armRefusal()).startsWith("nothing on a request path is instrumented: none of the enabled targets (jdkhttp)"
                + " matched a loaded class (the JDK HTTP server that jdkhttp gated serves only the agent's own admin API)")
                .contains("method=CLASS#METHOD");
        assertThat(onlyAdmin.healthDetails()).containsEntry("request_path_instrumented", false);
    }

    @Test
    void the_jdk_servers_gates_count_when_the_service_runs_that_server_too() {
        MatchRegistry withService = new MatchRegistry(List.of(JdkHttpTarget.target()), () -> true);
        jdkServerGated(withService);

        assertThat(withService.armRefusal()).isEmpty();
        assertThat(withService.healthDetails()).containsEntry("request_path_instrumented", true);
    }

    private static void jdkServerGated(MatchRegistry registry) {
        registry.matched(JdkHttpTarget.target(), "sun.net.httpserver.ServerImpl$Exchange", null);
        registry.transformed("sun.net.httpserver.ServerImpl$Exchange", null);
    }

    @Test
    void guards_accept_only_loaders_that_see_the_version_classes() {
        assertThat(jetty12.guardAccepts(getClass().getClassLoader())).isTrue();
        assertThat(jetty12.guardAccepts(ClassLoader.getPlatformClassLoader())).isFalse();
    }
}
