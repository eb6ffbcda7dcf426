package io.loadsmith.agent.it;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.loadsmith.agent.apps.GrpcApp;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;

/**
 * The stall contract on a grpc-java service (grpc-netty-shaded, the test app {@link GrpcApp}), its requests
 * sent as unary gRPC calls by grpc-java's own client: {@code /slow?ms=N} is a call that asks for N ms of work,
 * {@code /fast} one that asks for none. The calls share one channel (one HTTP/2 connection, opened by the
 * first call of the setup), as a gRPC client's calls do; a request's status is its gRPC code, OK (0) when it
 * succeeded.
 */
abstract class AbstractGrpcStallIT extends AbstractServerStallIT {

    private ManagedChannel channel;

    @Override protected String mainClass() { return "io.loadsmith.agent.apps.GrpcApp"; }
    @Override protected List<String> libraries() { return List.of("/io/grpc/", "/com/google/guava/", "/io/perfmark/"); }
    @Override protected String target() { return "grpc"; }
    @Override protected int okStatus() { return Status.Code.OK.value(); }

    @Override
    protected PreparedRequest prepare(String path) {
        if (channel == null) {
            channel = Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create()).build();
        }
        byte[] workMillis = String.valueOf(workMillis(path)).getBytes(StandardCharsets.US_ASCII);
        return new PreparedRequest() {
            @Override
            public RawHttp.Timed sendAt(long sendAtNanos) {
                RawHttp.waitUntil(sendAtNanos);
                long sent = System.nanoTime();
                try {
                    byte[] answer = ClientCalls.blockingUnaryCall(channel, GrpcApp.WORK,
                            CallOptions.DEFAULT.withDeadlineAfter(15, TimeUnit.SECONDS), workMillis);
                    return timed(Status.OK, new String(answer, StandardCharsets.US_ASCII), sent);
                } catch (StatusRuntimeException e) {
                    return timed(e.getStatus(), String.valueOf(e.getStatus().getDescription()), sent);
                }
            }

            @Override
            public void close() {
                // the channel outlives each call; it closes with the class
            }
        };
    }

    private static RawHttp.Timed timed(Status status, String body, long sentNanos) {
        return new RawHttp.Timed(status.getCode().value(), body, sentNanos, System.nanoTime(), "grpc-status: " + status.getCode());
    }

    /** N of {@code /slow?ms=N}, 0 for {@code /fast}. */
    private static long workMillis(String path) {
        int at = path.indexOf("ms=");
        return at < 0 ? 0 : Long.parseLong(path.substring(at + 3));
    }

    @AfterAll
    void closeChannel() throws InterruptedException {
        if (channel != null) {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
