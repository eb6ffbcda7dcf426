package io.loadsmith.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentOptionsTest {

    @Test
    void no_options_give_loopback_7070_every_target_and_no_token() {
        AgentOptions options = AgentOptions.parse(null);

        assertThat(options.adminHost()).isEqualTo("127.0.0.1");
        assertThat(options.adminPort()).isEqualTo(7070);
        assertThat(options.token()).isNull();
        assertThat(options.tokenFile()).isNull();
        assertThat(options.autoTargets()).isTrue();
        assertThat(options.enables("jetty12")).isTrue();
        assertThat(options.enables("method")).isFalse();
        assertThat(options.logLevel()).isEqualTo(AgentOptions.LogLevel.INFO);
        assertThat(options.observe()).isEqualTo(AgentOptions.Observe.ARMED);
        assertThat(options.sleeperPark()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void sleeper_takes_a_park_of_whole_milliseconds_from_1_to_100() {
        assertThat(AgentOptions.parse("sleeper=5ms").sleeperPark()).isEqualTo(Duration.ofMillis(5));
        assertThat(AgentOptions.parse("sleeper=1MS").sleeperPark()).isEqualTo(Duration.ofMillis(1));
        assertThat(AgentOptions.parse("sleeper=100ms").sleeperPark()).isEqualTo(Duration.ofMillis(100));
        for (String bad : new String[] {"0ms", "101ms", "5", "5s", "1.5ms", "", "99999999999ms"}) {
            assertThatThrownBy(() -> AgentOptions.parse("sleeper=" + bad))
                    .hasMessage("option sleeper: expected a park from 1ms to 100ms, e.g. sleeper=5ms (got \"" + bad + "\")");
        }
    }

    @Test
    void jfr_memory_is_small_by_default_or_the_jdks() {
        assertThat(AgentOptions.parse("").smallJfrMemory()).isTrue();
        assertThat(AgentOptions.parse("jfr-memory=small").smallJfrMemory()).isTrue();
        assertThat(AgentOptions.parse("jfr-memory=JDK").smallJfrMemory()).isFalse();
        assertThatThrownBy(() -> AgentOptions.parse("jfr-memory=10m"))
                .hasMessage("option jfr-memory: expected small or jdk (got \"10m\")");
    }

    @Test
    void observe_is_armed_always_or_off_and_on_is_armed() {
        assertThat(AgentOptions.parse("observe=off").observe()).isEqualTo(AgentOptions.Observe.OFF);
        assertThat(AgentOptions.parse("observe=always").observe()).isEqualTo(AgentOptions.Observe.ALWAYS);
        assertThat(AgentOptions.parse("observe=Armed").observe()).isEqualTo(AgentOptions.Observe.ARMED);
        assertThat(AgentOptions.parse("observe=ON").observe()).isEqualTo(AgentOptions.Observe.ARMED);
    }

    @Test
    void trace_header_is_off_unless_switched_on() {
        assertThat(AgentOptions.parse(null).traceHeader()).isFalse();
        assertThat(AgentOptions.parse("trace-header=on").traceHeader()).isTrue();
        assertThat(AgentOptions.parse("trace-header=OFF").traceHeader()).isFalse();
        assertThatThrownBy(() -> AgentOptions.parse("trace-header=yes"))
                .hasMessage("option trace-header: expected on or off (got \"yes\")");
    }

    @Test
    void replica_names_the_replica_or_defaults_to_host_and_pid() {
        assertThat(AgentOptions.parse("replica=scored-0").replica()).isEqualTo("scored-0");
        assertThat(AgentOptions.parse(null).replica()).endsWith("-" + ProcessHandle.current().pid())
                .matches("[A-Za-z0-9._:-]+");
        assertThatThrownBy(() -> AgentOptions.parse("replica=a;b"))
                .hasMessage("option replica: expected a name of letters, digits, '.', '_', ':' and '-' (got \"a;b\")");
    }

    @Test
    void admin_takes_host_and_port() {
        AgentOptions options = AgentOptions.parse("admin=localhost:0");

        assertThat(options.adminHost()).isEqualTo("localhost");
        assertThat(options.adminPort()).isZero();
    }

    @Test
    void admin_takes_a_bracketed_ipv6_loopback() {
        AgentOptions options = AgentOptions.parse("admin=[::1]:9000");

        assertThat(options.adminHost()).isEqualTo("::1");
        assertThat(options.adminPort()).isEqualTo(9000);
    }

    @Test
    void targets_take_a_list_joined_with_plus_or_commas() {
        assertThat(AgentOptions.parse("targets=jetty12+netty").targets()).containsExactly("jetty12", "netty");
        assertThat(AgentOptions.parse("targets=jetty12,netty,log=debug").targets()).containsExactly("jetty12", "netty");
        assertThat(AgentOptions.parse("targets=jetty12,netty").enables("tomcat")).isFalse();
    }

    @Test
    void method_is_repeatable_and_switches_the_method_target_on() {
        AgentOptions options = AgentOptions.parse("method=com.acme.Foo#bar,method=com.acme.Foo$Inner#baz,targets=tomcat");

        assertThat(options.methods()).containsExactly(new AgentOptions.MethodRef("com.acme.Foo", "bar"),
                new AgentOptions.MethodRef("com.acme.Foo$Inner", "baz"));
        assertThat(options.enables("method")).isTrue();
        assertThat(options.targets()).containsExactly("tomcat", "method");
    }

    @Test
    void token_random_writes_to_the_default_file_unless_one_is_named() {
        assertThat(AgentOptions.parse("token=random").tokenFile())
                .isEqualTo(Paths.get(System.getProperty("user.home"), ".loadsmith", "token"));
        AgentOptions named = AgentOptions.parse("token=random,token-file=/tmp/t");
        assertThat(named.randomToken()).isTrue();
        assertThat(named.token()).isNull();
        assertThat(named.tokenFile()).isEqualTo(Paths.get("/tmp/t"));
    }

    @Test
    void token_file_expands_the_home_folder() {
        assertThat(AgentOptions.parse("token-file=~/x/token").tokenFile())
                .isEqualTo(Paths.get(System.getProperty("user.home"), "x", "token"));
    }

    @Test
    void the_token_is_the_first_line_of_the_token_file_trimmed(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("token"), "  s3cret \nignored\n");
        assertThat(AgentRuntime.resolveToken(AgentOptions.parse("token-file=" + file))).isEqualTo("s3cret");
    }

    @Test
    void a_token_file_with_an_empty_first_line_is_refused_naming_the_option_and_the_file(@TempDir Path dir)
            throws IOException {
        Path file = Files.writeString(dir.resolve("token"), "\ns3cret\n");
        assertThatThrownBy(() -> AgentRuntime.resolveToken(AgentOptions.parse("token-file=" + file)))
                .isInstanceOf(IOException.class)
                .hasMessage("token-file " + file + ": the first line is empty (it must hold the token)");
    }

    @Test
    void bad_options_are_refused_with_a_message_naming_the_option() {
        assertThatThrownBy(() -> AgentOptions.parse("admin=7070"))
                .hasMessage("option admin: expected HOST:PORT, e.g. admin=127.0.0.1:7070 (got \"7070\")");
        assertThatThrownBy(() -> AgentOptions.parse("admin=127.0.0.1:70000"))
                .hasMessage("option admin: port must be a number from 0 to 65535 (got 70000)");
        assertThatThrownBy(() -> AgentOptions.parse("targets=jboss"))
                .hasMessage("option targets: unknown target \"jboss\" (known: auto, jetty12, jetty9, servlet, tomcat, netty, undertow, jdkhttp, grpc, method)");
        assertThatThrownBy(() -> AgentOptions.parse("method=Foo"))
                .hasMessage("option method: expected a class and a method, e.g. method=com.acme.Foo#bar (got \"Foo\")");
        assertThatThrownBy(() -> AgentOptions.parse("observe=maybe"))
                .hasMessage("option observe: expected armed, always or off (on is armed; got \"maybe\")");
        assertThatThrownBy(() -> AgentOptions.parse("log=loud"))
                .hasMessage("option log: expected off, error, warning, info or debug (got \"loud\")");
        assertThatThrownBy(() -> AgentOptions.parse("colour=red"))
                .hasMessage("unknown option \"colour\" (options: admin, token, token-file, targets, method, log, observe, sleeper, jfr-memory, trace-header, replica)");
        assertThatThrownBy(() -> AgentOptions.parse("token=a,token-file=/tmp/t"))
                .hasMessage("options token and token-file: give one of them (or token=random,token-file=PATH)");
    }

    @Test
    void a_non_loopback_admin_address_needs_a_token() {
        assertThatThrownBy(() -> AgentOptions.parse("admin=0.0.0.0:7070"))
                .hasMessageStartingWith("option admin: 0.0.0.0 is not a loopback address");
        assertThat(AgentOptions.parse("admin=0.0.0.0:7070,token=s3cret").adminHost()).isEqualTo("0.0.0.0");
    }

    @Test
    void known_targets_match_the_target_packages() {
        assertThat(AgentOptions.KNOWN_TARGETS)
                .isEqualTo(List.of("jetty12", "jetty9", "servlet", "tomcat", "netty", "undertow", "jdkhttp", "grpc", "method"));
    }
}
