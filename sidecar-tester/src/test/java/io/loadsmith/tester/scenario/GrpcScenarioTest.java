package io.loadsmith.tester.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.loadsmith.tester.grpc.GrpcFraming;
import io.loadsmith.tester.grpc.GrpcStatus;
import io.loadsmith.tester.scenario.Scenario.Step;
import io.loadsmith.tester.transport.RequestSpec;
import io.loadsmith.tester.transport.ResponseCheck;
import io.loadsmith.tester.transport.TransportOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrpcScenarioTest {

    private static final Path SCORING = Path.of("../examples/scenarios/grpc/scoring.protoset");

    @TempDir
    Path dir;

    @BeforeEach
    void writeFiles() throws IOException {
        Files.copy(SCORING, dir.resolve("scoring.protoset"));
        Files.writeString(dir.resolve("customers.csv"), "customer_id,expected\n7,0.5\n8,0.25\n");
    }

    private Scenario parse(String yaml) {
        return ScenarioParser.parse(yaml, "grpc.yaml", dir, List.of());
    }

    /** A scenario of one journey whose one step is {@code step} (YAML lines at the step's indentation). */
    private static String scenario(String step) {
        return """
                target:
                  url: grpc://127.0.0.1:9090
                  grpc: {descriptor: scoring.protoset}
                load: {rate: 10, duration: 1s}
                journeys:
                  - data: customers.csv
                    steps:
                """ + step.indent(6);
    }

    private static final String SCORE = """
            - request: GRPC scoring.Scorer/Score
              body: '{"customer_id": ${customer_id}}'
              metadata: {X-Tenant: a}
              deadline: 500ms
              check: {grpc_status: OK, json: {score: "${expected}"}}
            """;

    @Test
    void a_grpc_target_runs_on_jetty_over_http2() {
        Scenario s = parse(scenario(SCORE));

        assertThat(s.target().url()).isEqualTo(URI.create("grpc://127.0.0.1:9090"));
        assertThat(s.target().transport()).isEqualTo(TransportOptions.Kind.JETTY);
        assertThat(s.target().http()).isEqualTo(TransportOptions.Http.HTTP_2);
        assertThat(s.target().grpc().methodNames()).containsExactly("scoring.Scorer/Score");
        Step step = s.journeys().get(0).steps().get(0);
        assertThat(step.name()).isEqualTo("GRPC scoring.Scorer/Score");
        assertThat(step.grpc().deadlineNanos()).isEqualTo(500_000_000L);
        assertThat(step.grpc().metadata()).containsOnlyKeys("x-tenant");
        assertThat(step.check().grpcStatus()).isEqualTo(GrpcStatus.OK);
    }

    @Test
    void each_row_is_a_call_of_its_own_message_with_the_call_fields_and_metadata() {
        Scenario s = parse(scenario(SCORE));
        ScenarioSource source = (ScenarioSource) s.source(s.target().url());

        RequestSpec request = source.request(0, 0, -1).rendered();

        int row = source.rowOf(0, 0);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.uri()).isEqualTo(URI.create("grpc://127.0.0.1:9090/scoring.Scorer/Score"));
        assertThat(request.headers()).containsExactly(
                java.util.Map.entry("content-type", "application/grpc"), java.util.Map.entry("te", "trailers"),
                java.util.Map.entry("grpc-timeout", "500000u"), java.util.Map.entry("x-tenant", "a"));
        assertThat(request.contentType()).isEqualTo("application/grpc");
        assertThat(request.body()).containsExactly(0, 0, 0, 0, 2, 0x08, row == 0 ? 7 : 8);
    }

    @Test
    void a_body_without_placeholders_is_mapped_once_for_every_call() {
        Scenario s = parse(scenario("""
                - request: GRPC scoring.Scorer/Score
                  body: '{"customer_id": 7}'
                  check: {json: {customer_id: "${customer_id}"}}
                """));
        ScenarioSource source = (ScenarioSource) s.source(s.target().url());

        byte[] first = source.request(0, 0, -1).rendered().body();
        byte[] second = source.request(1, 0, -1).rendered().body();

        assertThat(first).containsExactly(0, 0, 0, 0, 2, 0x08, 7);
        assertThat(second).isSameAs(first);
        assertThat(s.journeys().get(0).steps().get(0).grpc().bodies()).hasSize(1);
    }

    @Test
    void a_step_without_a_body_sends_the_empty_message() {
        Scenario s = parse(scenario("- request: GRPC scoring.Scorer/Score\n"));

        assertThat(s.journeys().get(0).steps().get(0).grpc().body(-1)).containsExactly(0, 0, 0, 0, 0);
    }

    @Test
    void the_check_compares_the_grpc_status_then_the_answer_as_json() {
        Step step = parse(scenario(SCORE)).journeys().get(0).steps().get(0);
        ResponseCheck check = ScenarioSource.check(step, name -> name.equals("expected") ? "0.5" : "7");
        // customer_id 7, score "0.5"
        byte[] answer = GrpcFraming.frame(new byte[] {0x08, 0x07, 0x12, 0x03, '0', '.', '5'});
        byte[] other = GrpcFraming.frame(new byte[] {0x08, 0x07, 0x12, 0x03, '0', '.', '7'});

        assertThat(check.check(GrpcStatus.OK.code(), answer)).isNull();
        assertThat(check.check(GrpcStatus.NOT_FOUND.code(), new byte[0])).isEqualTo("grpc-status NOT_FOUND, expected OK");
        assertThat(check.check(GrpcStatus.OK.code(), other)).isEqualTo("json score is 0.7, expected 0.5");
        assertThat(check.check(GrpcStatus.OK.code(), new byte[] {1})).contains("less than a message's 5-byte prefix");
    }

    @Test
    void a_check_may_expect_another_status() {
        Step step = parse(scenario("- request: GRPC scoring.Scorer/Score\n  check: {grpc_status: not_found}\n"))
                .journeys().get(0).steps().get(0);
        ResponseCheck check = ScenarioSource.check(step, name -> "");

        assertThat(check.check(GrpcStatus.NOT_FOUND.code(), new byte[0])).isNull();
        assertThat(check.check(GrpcStatus.OK.code(), new byte[0])).isEqualTo("grpc-status OK, expected NOT_FOUND");
    }

    @Test
    void a_method_the_descriptor_lacks_is_named_with_the_nearest() {
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Scor\n")))
                .isInstanceOf(ScenarioException.class)
                .hasMessage("grpc.yaml:8: journeys[0].steps[0].request names \"scoring.Scorer/Scor\", which the "
                        + "descriptor set does not have (its methods: scoring.Scorer/Score; did you mean "
                        + "scoring.Scorer/Score?)");
    }

    @Test
    void a_body_field_the_message_lacks_names_the_field() {
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Score\n  body: '{\"customer\": 7}'\n")))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("grpc.yaml:9: journeys[0].steps[0].body does not fit scoring.ScoreRequest: ")
                .hasMessageContaining("customer");
    }

    @Test
    void a_row_whose_body_does_not_fit_names_the_row() throws IOException {
        Files.writeString(dir.resolve("customers.csv"), "customer_id,expected\n7,0.5\nseven,0.25\n");

        assertThatThrownBy(() -> parse(scenario(SCORE)))
                .hasMessageStartingWith("grpc.yaml:9: journeys[0].steps[0].body of row 2 of customers.csv does not fit "
                        + "scoring.ScoreRequest");
    }

    @Test
    void a_descriptor_that_is_not_a_descriptor_set_is_refused() throws IOException {
        Files.writeString(dir.resolve("scoring.protoset"), "syntax = \"proto3\";\n");

        assertThatThrownBy(() -> parse(scenario(SCORE)))
                .hasMessageStartingWith("grpc.yaml:3: target.grpc.descriptor : scoring.protoset is not a "
                        + "FileDescriptorSet (protoc --include_imports --descriptor_set_out=FILE)");
    }

    @Test
    void reflection_and_a_descriptor_are_one_or_the_other() {
        String both = scenario(SCORE).replace("grpc: {descriptor: scoring.protoset}",
                "grpc: {descriptor: scoring.protoset, reflection: true}");
        String neither = scenario(SCORE).replace("grpc: {descriptor: scoring.protoset}", "grpc: {}");

        assertThatThrownBy(() -> parse(both)).hasMessage(
                "grpc.yaml:3: target.grpc needs one of descriptor (a FileDescriptorSet file) and reflection: true");
        assertThatThrownBy(() -> parse(neither)).hasMessage(
                "grpc.yaml:3: target.grpc needs one of descriptor (a FileDescriptorSet file) and reflection: true");
        assertThatThrownBy(() -> parse(scenario(SCORE).replace("{descriptor: scoring.protoset}", "{reflection: false}")))
                .hasMessage("grpc.yaml:3: target.grpc.reflection must be true (or give descriptor: FILE instead; got \"false\")");
    }

    @Test
    void reflection_of_a_server_that_is_not_there_is_bad_input_naming_the_url() {
        String yaml = scenario(SCORE).replace("grpc: {descriptor: scoring.protoset}", "grpc: {reflection: true}")
                .replace(":9090", ":1");

        assertThatThrownBy(() -> parse(yaml)).isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("grpc.yaml:3: target.grpc.reflection of grpc://127.0.0.1:1 cannot reach "
                        + "grpc://127.0.0.1:1 (");
    }

    @Test
    void a_grpc_target_on_the_netty_transport_is_refused() {
        String yaml = scenario(SCORE).replace("  grpc: {descriptor", "  transport: netty\n  grpc: {descriptor");

        assertThatThrownBy(() -> parse(yaml)).hasMessage("grpc.yaml:3: target.transport must be jetty for a grpc:// "
                + "url (a gRPC call is an HTTP/2 request, which only the jetty transport speaks; netty speaks HTTP/1.1)");
    }

    @Test
    void a_grpc_target_speaks_http2_only() {
        String yaml = scenario(SCORE).replace("  grpc: {descriptor", "  http: '1.1'\n  grpc: {descriptor");

        assertThatThrownBy(() -> parse(yaml)).hasMessage("grpc.yaml:3: target.http must be 2 for a grpc:// url (gRPC runs on HTTP/2)");
        assertThat(parse(scenario(SCORE).replace("  grpc: {descriptor", "  http: 2\n  grpc: {descriptor")).target().http())
                .isEqualTo(TransportOptions.Http.HTTP_2);
    }

    @Test
    void a_grpc_target_needs_a_descriptor_and_a_port() {
        assertThatThrownBy(() -> parse(scenario(SCORE).replace("  grpc: {descriptor: scoring.protoset}\n", "")))
                .hasMessageStartingWith("grpc.yaml:2: target.url is a gRPC target, so it needs target.grpc: {descriptor: FILE}");
        assertThatThrownBy(() -> parse(scenario(SCORE).replace(":9090", "")))
                .hasMessage("grpc.yaml:2: target.url must be grpc://HOST:PORT, with its port (got \"grpc://127.0.0.1\")");
    }

    @Test
    void steps_and_targets_of_the_two_protocols_do_not_mix() {
        assertThatThrownBy(() -> parse(scenario("- request: GET /score/7\n")))
                .hasMessageStartingWith("grpc.yaml:8: journeys[0].steps[0].request is an HTTP request, and target.url "
                        + "is a gRPC target");
        String http = scenario(SCORE).replace("grpc://127.0.0.1:9090", "http://127.0.0.1:9090")
                .replace("  grpc: {descriptor: scoring.protoset}\n", "");
        assertThatThrownBy(() -> parse(http)).hasMessage("grpc.yaml:7: journeys[0].steps[0].request is a gRPC call, "
                + "which needs a grpc:// or grpcs:// target.url and target.grpc");
        assertThatThrownBy(() -> parse(scenario(SCORE).replace("grpc://", "http://")))
                .hasMessageStartingWith("grpc.yaml:3: target.grpc is only for a grpc:// or grpcs:// url");
    }

    @Test
    void http_keys_on_a_call_and_call_keys_on_a_request_are_refused() {
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Score\n  headers: {a: b}\n")))
                .hasMessage("grpc.yaml:9: journeys[0].steps[0].headers is for HTTP requests; a GRPC step sends "
                        + "metadata: {key: value}");
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Score\n  check: {status: 200}\n")))
                .hasMessage("grpc.yaml:9: journeys[0].steps[0].check.status is for HTTP requests; a GRPC step "
                        + "checks grpc_status and json");
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Score\n  check: {grpc_status: NOTFOUND}\n")))
                .hasMessageContaining("check.grpc_status must be a gRPC status name (OK, CANCELLED")
                .hasMessageContaining("did you mean NOT_FOUND?; got \"NOTFOUND\")");
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Score\n  metadata: {grpc-x: b}\n")))
                .hasMessageContaining("metadata has the key \"grpc-x\", which the call sets itself");
        assertThatThrownBy(() -> parse(scenario("- request: GRPC scoring.Scorer/Score\n  deadline: 0s\n")))
                .hasMessageContaining("deadline must be > 0");
    }
}
