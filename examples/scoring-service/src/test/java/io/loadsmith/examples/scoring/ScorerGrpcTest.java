package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.DynamicMessage;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code scoring.Scorer/Score} over real gRPC (grpc-java's client) on a service started with a free gRPC port. */
class ScorerGrpcTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path database;
    private static ScoringService service;
    private static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        database = TestShops.database(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);
        service = ScoringService.start(new Options(0, 2, database, TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS)
                .withGrpcPort(0));
        channel = channel(URI.create(service.grpcUrl().orElseThrow()).getPort());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        service.close();
    }

    @Test
    void score_answers_the_same_score_text_as_get_score() throws Exception {
        for (int customerId : new int[] {1, 2, 999, 2_000}) {
            DynamicMessage reply = score(channel, customerId);

            assertThat(reply.getField(ScorerProtocol.REPLY_CUSTOMER_ID)).isEqualTo(customerId);
            String score = (String) reply.getField(ScorerProtocol.REPLY_SCORE);
            assertThat(score).matches("0\\.\\d{6}|1\\.000000");
            assertThat(httpScore(customerId)).isEqualTo("{\"customer_id\":" + customerId + ",\"score\":" + score + "}");
        }
    }

    @Test
    void score_of_an_unknown_customer_is_not_found() {
        assertThatThrownBy(() -> score(channel, 2_001))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                    assertThat(e.getStatus().getDescription()).isEqualTo("unknown customer 2001");
                });
    }

    @Test
    void score_of_an_id_below_one_is_an_invalid_argument() {
        for (int customerId : new int[] {0, -5}) {
            assertThatThrownBy(() -> score(channel, customerId))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                        assertThat(e.getStatus().getDescription())
                                .isEqualTo("customer_id must be a positive integer (got " + customerId + ")");
                    });
        }
    }

    @Test
    void the_listening_line_names_both_addresses_on_loopback() {
        assertThat(service.listeningLine()).isEqualTo("scoring-service listening on " + service.baseUrl()
                + " and " + service.grpcUrl().orElseThrow());
        assertThat(service.grpcUrl().orElseThrow()).matches("grpc://127\\.0\\.0\\.1:\\d+");
    }

    @Test
    void calls_run_on_the_executor_given_not_on_the_event_loop() throws Exception {
        ExecutorService threads = Executors.newSingleThreadExecutor();
        AtomicInteger tasks = new AtomicInteger();
        try (ShopDatabase opened = ShopDatabase.open(database);
             ScoringGrpcServer server = ScoringGrpcServer.start(new CustomerScores(opened, BuyAgainModel.load(opened.modelBytes())),
                     ScoringServer.HOST, 0, task -> {
                         tasks.incrementAndGet();
                         threads.execute(task);
                     })) {
            ManagedChannel own = channel(server.port());
            try {
                assertThat(score(own, 7).getField(ScorerProtocol.REPLY_SCORE)).isEqualTo(score(channel, 7).getField(ScorerProtocol.REPLY_SCORE));
                assertThat(tasks.get()).isPositive();
            } finally {
                own.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static ManagedChannel channel(int port) {
        return NettyChannelBuilder.forAddress(ScoringServer.HOST, port).usePlaintext().build();
    }

    private static DynamicMessage score(ManagedChannel channel, int customerId) {
        return ClientCalls.blockingUnaryCall(channel, ScorerProtocol.SCORE,
                CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), ScorerProtocol.request(customerId));
    }

    private static String httpScore(int customerId) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(service.baseUrl() + "/score/" + customerId))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
