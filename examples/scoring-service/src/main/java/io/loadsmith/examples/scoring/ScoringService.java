package io.loadsmith.examples.scoring;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The reference scored service: a small shop that scores how likely a customer is to buy again.
 *
 * <pre>
 * java -jar examples/scoring-service/target/scoring-service.jar --port 8080 --threads 8 [--grpc-port 9090]
 * </pre>
 *
 * On first start it generates the shop from {@code --seed} into {@code --db} (and {@code customers.csv} beside
 * it) and trains the model; later starts reuse the file. When it serves it prints exactly one line to stdout,
 * {@code scoring-service listening on http://127.0.0.1:PORT}, or with {@code --grpc-port}
 * {@code scoring-service listening on http://127.0.0.1:PORT and grpc://127.0.0.1:GRPC_PORT}; everything else
 * goes to stderr (slf4j-simple).
 * It has no stall code: the loadsmith agent adds stalls to it as it would to any service.
 */
public final class ScoringService implements AutoCloseable {

    private final ShopDatabase database;
    private final ScoringServer server;
    private final ScoringGrpcServer grpc;

    private ScoringService(ShopDatabase database, ScoringServer server, ScoringGrpcServer grpc) {
        this.database = database;
        this.server = server;
        this.grpc = grpc;
    }

    /** Prepares the shop if needed and starts serving, HTTP and (with a gRPC port) gRPC from one model. */
    public static ScoringService start(Options options) throws IOException {
        ShopDatabase database = ShopFiles.openOrGenerate(options.database(), options.seed(), options.customers());
        ScoringServer server = null;
        try {
            CustomerScores scores = new CustomerScores(database, BuyAgainModel.load(database.modelBytes()));
            server = ScoringServer.start(new ShopApi(database, scores), options.host(), options.port(), options.threads());
            ScoringGrpcServer grpc = options.servesGrpc()
                    ? ScoringGrpcServer.start(scores, options.host(), options.grpcPort(), server.requestThreads()) : null;
            return new ScoringService(database, server, grpc);
        } catch (RuntimeException e) {
            if (server != null) {
                server.close();
            }
            database.close();
            throw e;
        }
    }

    public int port() {
        return server.port();
    }

    public String baseUrl() {
        return "http://" + server.callableHost() + ":" + port();
    }

    /** {@code grpc://127.0.0.1:PORT} (the address a client on this host calls), when a gRPC port is served. */
    public Optional<String> grpcUrl() {
        return Optional.ofNullable(grpc).map(g -> "grpc://" + server.callableHost() + ":" + g.port());
    }

    /** The one line printed when serving: every address a client calls. */
    String listeningLine() {
        return "scoring-service listening on " + baseUrl() + grpcUrl().map(url -> " and " + url).orElse("");
    }

    public Path referenceScores(Options options) {
        return ShopFiles.referenceScores(options.database());
    }

    @Override
    public void close() {
        if (grpc != null) {
            grpc.close();
        }
        server.close();
        database.close();
    }

    public static void main(String[] args) throws IOException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("scoring-service: " + e.getMessage());
            System.exit(2);
            return;
        }
        ScoringService service = start(options);
        Runtime.getRuntime().addShutdownHook(new Thread(service::close, "scoring-shutdown"));
        System.out.println(service.listeningLine());
        System.out.flush();
    }
}
