package io.loadsmith.tester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.ProtoFileDescriptorSupplier;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.grpc.stub.ServerCalls;
import java.io.PrintWriter;
import java.io.StringWriter;
import io.loadsmith.tester.grpc.ScorerProto;
import io.loadsmith.tester.transport.TestCertificates;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import javax.net.ssl.KeyManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code loadsmith run} of a gRPC scenario against a real grpc-java server (Netty, shaded) on 127.0.0.1 that
 * serves scoring.Scorer/Score with dynamic messages of the reference service's descriptor set: customer 5
 * is NOT_FOUND, customer 9 is never answered (its deadline of 1 s passes: long enough that no other call of a
 * cold JVM meets it), customer 7's expected score in the data is wrong (a failed check); the rest are
 * answered. On each load model, and over TLS, every call the server received is counted once, by the name of
 * its outcome.
 */
class GrpcRunIT {

    private static final Path PROTOSET = Path.of("../examples/scenarios/grpc/scoring.protoset");

    private static Server server;
    private static Server tlsServer;
    private static Path certificates;
    private static final ConcurrentHashMap<Integer, LongAdder> received = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<String, LongAdder> tenants = new ConcurrentHashMap<>();

    @BeforeAll
    static void startServer() throws Exception {
        ScorerProto proto = ScorerProto.read(PROTOSET);
        FileDescriptor file = proto.file();
        Descriptor request = proto.request();
        MethodDescriptor<DynamicMessage, DynamicMessage> score = proto.score();
        ServiceDescriptor scorer = ServiceDescriptor.newBuilder("scoring.Scorer")
                .setSchemaDescriptor((ProtoFileDescriptorSupplier) () -> file) // what reflection serves
                .addMethod(score)
                .build();
        ServerServiceDefinition service = ServerServiceDefinition.builder(scorer)
                .addMethod(score, ServerCalls.asyncUnaryCall((call, answer) -> {
                    int id = (int) call.getField(request.findFieldByName("customer_id"));
                    received.computeIfAbsent(id, k -> new LongAdder()).increment();
                    if (id == 5) {
                        answer.onError(Status.NOT_FOUND.withDescription("no customer " + id).asRuntimeException());
                    } else if (id != 9) {
                        answer.onNext(proto.replyOf(id, "0." + id));
                        answer.onCompleted();
                    }
                }))
                .build();
        Metadata.Key<String> tenant = Metadata.Key.of("x-tenant", Metadata.ASCII_STRING_MARSHALLER);
        ServerInterceptor tenantCounter = new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
                                                               ServerCallHandler<Q, A> next) {
                tenants.computeIfAbsent(String.valueOf(headers.get(tenant)), k -> new LongAdder()).increment();
                return next.startCall(call, headers);
            }
        };
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(ServerInterceptors.intercept(service, tenantCounter))
                .addService(ProtoReflectionServiceV1.newInstance())
                .build()
                .start();
        certificates = Files.createTempDirectory("grpc-tls");
        TestCertificates.Made made = TestCertificates.make(certificates);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(made.keyStore())) {
            keys.load(in, TestCertificates.PASSWORD.toCharArray());
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keys, TestCertificates.PASSWORD.toCharArray());
        tlsServer = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0),
                        TlsServerCredentials.newBuilder().keyManager(keyManagers.getKeyManagers()).build())
                .addService(ServerInterceptors.intercept(service, tenantCounter))
                .build()
                .start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        tlsServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        try (var files = Files.list(certificates)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(certificates);
    }

    @BeforeEach
    void resetCounts() {
        received.clear();
        tenants.clear();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{model: open, rate: 100, connections: 2", "{model: closed, connections: 4", "{model: paced, connections: 4, pace: 100ms"})
    void every_call_is_counted_once_by_the_name_of_its_status(String load, @TempDir Path tmp) throws Exception {
        JsonNode run = run(tmp, "grpc://127.0.0.1:" + server.getPort(), "", load);

        assertCountedByName(run);
    }

    @Test
    void a_grpcs_target_is_called_over_tls(@TempDir Path tmp) throws Exception {
        Files.copy(certificates.resolve("server.pem"), tmp.resolve("ca.pem"));

        JsonNode run = run(tmp, "grpcs://127.0.0.1:" + tlsServer.getPort(), "  tls: {ca_file: ca.pem}\n",
                "{model: open, rate: 100, connections: 2");

        assertCountedByName(run);
    }

    @Test
    void reflection_gives_the_messages_instead_of_a_descriptor_set(@TempDir Path tmp) throws Exception {
        JsonNode run = run(tmp, "grpc://127.0.0.1:" + server.getPort(), "", "{model: open, rate: 100, connections: 2",
                "{reflection: true}");

        assertCountedByName(run);
    }

    @Test
    void reflection_refused_by_the_server_is_bad_input_naming_the_status(@TempDir Path tmp) throws Exception {
        Files.copy(certificates.resolve("server.pem"), tmp.resolve("ca.pem"));
        Path scenario = tmp.resolve("grpc.yaml");
        Files.writeString(scenario, """
                target:
                  url: grpcs://127.0.0.1:%d
                  tls: {ca_file: ca.pem}
                  grpc: {reflection: true}
                load: {rate: 10, duration: 1s}
                journeys:
                  - steps: [{request: GRPC scoring.Scorer/Score}]
                """.formatted(tlsServer.getPort()));
        StringWriter console = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(console, true));
        cmd.setErr(new PrintWriter(console, true));

        int exit = cmd.execute("run", scenario.toString(), "--out", tmp.resolve("out").toString(), "--progress", "none");

        assertThat(exit).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(console.toString()).contains("grpc.yaml:4: target.grpc.reflection of grpcs://127.0.0.1:"
                + tlsServer.getPort() + " refused by the server (grpc-status UNIMPLEMENTED");
    }

    /** results.json's run of the scenario with this url, target.tls line and load (its last brace left out). */
    private static JsonNode run(Path tmp, String url, String tls, String load) throws Exception {
        return run(tmp, url, tls, load, "{descriptor: scoring.protoset}");
    }

    /** {@link #run(Path, String, String, String)} with this {@code target.grpc}. */
    private static JsonNode run(Path tmp, String url, String tls, String load, String grpc) throws Exception {
        Files.copy(PROTOSET, tmp.resolve("scoring.protoset"));
        StringBuilder customers = new StringBuilder("customer_id,expected\n");
        for (int id = 1; id <= 10; id++) {
            customers.append(id).append(",0.").append(id == 7 ? 77 : id).append('\n');
        }
        Files.writeString(tmp.resolve("customers.csv"), customers);
        Path scenario = tmp.resolve("grpc.yaml");
        Files.writeString(scenario, """
                target:
                  url: %s
                  grpc: %s
                %sload: %s, duration: 1s, grace: 10s}
                journeys:
                  - data: customers.csv
                    steps:
                      - request: GRPC scoring.Scorer/Score
                        body: '{"customer_id": ${customer_id}}'
                        metadata: {X-Tenant: a}
                        deadline: 1s
                        check: {grpc_status: OK, json: {score: "${expected}"}}
                """.formatted(url, grpc, tls, load));
        Path out = tmp.resolve("out");
        StringWriter console = new StringWriter();
        CommandLine cmd = Main.commandLine();
        cmd.setOut(new PrintWriter(console, true));
        cmd.setErr(new PrintWriter(console, true));

        int exit = cmd.execute("run", scenario.toString(), "--out", out.toString(), "--progress", "none");

        assertThat(exit).as(console.toString()).isEqualTo(ExitCodes.OK);
        return new ObjectMapper().readTree(out.resolve("results.json").toFile()).at("/runs/0");
    }

    /** Every call the server received sent once, each counted by its outcome's name. */
    private static void assertCountedByName(JsonNode run) {
        assertThat(run.at("/transport/kind").asText()).isEqualTo("jetty");
        assertThat(run.at("/transport/http").asText()).isEqualTo("2");
        JsonNode counts = run.get("counts");
        long all = received.values().stream().mapToLong(LongAdder::sum).sum();
        assertThat(all).isPositive();
        assertThat(counts.get("sent").asLong()).as(run.toString()).isEqualTo(all);
        assertThat(counts.get("dropped").asLong()).isZero();
        long notFound = count(5);
        long unanswered = count(9);
        long wrongScore = count(7);
        assertThat(notFound).isPositive();
        assertThat(unanswered).isPositive();
        assertThat(counts.get("completed").asLong()).as(received + " " + run)
                .isEqualTo(all - notFound - unanswered - wrongScore);
        assertThat(counts.get("errors").asLong()).isEqualTo(notFound + unanswered + wrongScore);
        JsonNode kinds = run.get("errors_by_kind");
        assertThat(kinds.get("NOT_FOUND").asLong()).isEqualTo(notFound);
        assertThat(kinds.get("DEADLINE_EXCEEDED").asLong()).isEqualTo(unanswered);
        assertThat(kinds.path("check_failed").asLong()).isEqualTo(wrongScore);
        assertThat(kinds.size()).isEqualTo(wrongScore > 0 ? 3 : 2);
        assertThat(tenants).containsOnlyKeys("a");
        assertThat(run.get("warnings").toString()).contains("requests ended in an error (");
    }

    private static long count(int id) {
        LongAdder adder = received.get(id);
        return adder == null ? 0 : adder.sum();
    }
}
