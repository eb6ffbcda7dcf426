package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Starts the built jar in a child JVM exactly as the demo does (with a gRPC port too), on a fresh database of the
 * default seed, and checks a few hundred scores over HTTP and over gRPC against the checked-in {@code customers.csv}.
 */
class ScoringServiceJarIT {

    private static final Path JAR = Path.of("target", "scoring-service.jar");
    private static final Path FOLDER = Path.of("target", "it-shop");
    private static final Pattern LISTENING = Pattern.compile(
            "scoring-service listening on (http://127\\.0\\.0\\.1:\\d+) and grpc://127\\.0\\.0\\.1:(\\d+)");
    private static final int REQUESTS = 400;

    @Test
    @Timeout(value = 170, unit = TimeUnit.SECONDS)
    void the_jar_serves_the_reference_score_of_every_customer_asked() throws Exception {
        Map<Long, String> expected = ReferenceScores.read(ReferenceScoresTest.CHECKED_IN);
        deleteFolder();
        Process process = start("--port", "0", "--threads", "4", "--db", FOLDER.resolve("shop.db").toString(), "--grpc-port", "0");
        ManagedChannel channel = null;
        try {
            MatchResult listening = listeningLine(process, Duration.ofSeconds(150));
            String baseUrl = listening.group(1);
            channel = NettyChannelBuilder.forAddress("127.0.0.1", Integer.parseInt(listening.group(2))).usePlaintext().build();
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            long stride = expected.size() / REQUESTS;
            for (int i = 0; i < REQUESTS; i++) {
                long customerId = 1 + i * stride;
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(baseUrl + "/score/" + customerId))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body())
                        .isEqualTo("{\"customer_id\":" + customerId + ",\"score\":" + expected.get(customerId) + "}");
                assertThat(ClientCalls.blockingUnaryCall(channel, ScorerProtocol.SCORE,
                        CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), ScorerProtocol.request((int) customerId)))
                        .isEqualTo(ScorerProtocol.reply((int) customerId, expected.get(customerId)));
            }
            assertThat(Files.readString(FOLDER.resolve(ReferenceScores.FILE_NAME)))
                    .isEqualTo(Files.readString(ReferenceScoresTest.CHECKED_IN));
        } finally {
            if (channel != null) {
                channel.shutdownNow();
            }
            stop(process);
        }
    }

    private static Process start(String... options) throws IOException {
        Files.createDirectories(FOLDER);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(options));
        return new ProcessBuilder(command)
                .redirectError(FOLDER.resolve("service.log").toFile())
                .start();
    }

    /** Reads the child's stdout until its one listening line; fails if it ends or is silent for too long. */
    private static MatchResult listeningLine(Process process, Duration timeout) throws Exception {
        CompletableFuture<MatchResult> listening = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    Matcher matcher = LISTENING.matcher(line);
                    if (matcher.matches()) {
                        return matcher.toMatchResult();
                    }
                }
                throw new IllegalStateException("the service ended without listening; see " + FOLDER.resolve("service.log"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        return listening.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void deleteFolder() throws IOException {
        if (Files.exists(FOLDER)) {
            try (Stream<Path> paths = Files.walk(FOLDER)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }
}
