package io.loadsmith.tester.bench;

import com.google.protobuf.DynamicMessage;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import io.loadsmith.tester.grpc.ScorerProto;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * The cheap gRPC server of {@code sidecar-tester/bench/grpc-vs-h2.sh} (docs/benchmarks.md, "gRPC beside HTTP/2"):
 * grpc-java on grpc-netty-shaded, 127.0.0.1 and a free port, serving {@code scoring.Scorer/Score} of
 * examples/scenarios/grpc/scoring.protoset with one constant answer, customer 42's {@code ScoreReply} (its score as
 * data/customers.csv has it), whatever the request; calls run on the transport's thread (direct executor), so
 * that the server costs a fraction of what the reference scoring service does and a 2-core box can answer
 * 10,000 calls a second beside the tester. Prints {@code PORT=n} once it listens; serves until it is killed.
 * Run from the repository's root on the test class path:
 * {@code java -cp ... io.loadsmith.tester.bench.GrpcBenchServer [PROTOSET]}.
 */
public final class GrpcBenchServer {

    private GrpcBenchServer() {
    }

    public static void main(String[] args) throws Exception {
        ScorerProto proto = ScorerProto.read(Path.of(args.length > 0 ? args[0] : "examples/scenarios/grpc/scoring.protoset"));
        DynamicMessage reply = proto.replyOf(42, "0.221657");
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).directExecutor()
                .addService(ServerServiceDefinition.builder("scoring.Scorer")
                        .addMethod(proto.score(), ServerCalls.asyncUnaryCall((request, answer) -> {
                            answer.onNext(reply);
                            answer.onCompleted();
                        })).build())
                .build().start();
        System.out.println("PORT=" + server.getPort());
        System.out.flush();
        server.awaitTermination();
    }
}
