package io.loadsmith.examples.scoring;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The reference scored service: a small shop that scores how likely a customer is to buy again.
 *
 * <pre>
 * java -jar examples/scoring-service/target/scoring-service.jar --port 8080 --threads 8
 * </pre>
 *
 * On first start it generates the shop from {@code --seed} into {@code --db} (and {@code customers.csv} beside
 * it) and trains the model; later starts reuse the file. When it serves it prints exactly one line to stdout,
 * {@code scoring-service listening on http://127.0.0.1:PORT}; everything else goes to stderr (slf4j-simple).
 * It has no stall code: the loadsmith agent adds stalls to it as it would to any service.
 */
public final class ScoringService implements AutoCloseable {

    private final ShopDatabase database;
    private final ScoringServer server;

    private ScoringService(ShopDatabase database, ScoringServer server) {
        this.database = database;
        this.server = server;
    }

    /** Prepares the shop if needed and starts serving. */
    public static ScoringService start(Options options) throws IOException {
        ShopDatabase database = ShopFiles.openOrGenerate(options.database(), options.seed(), options.customers());
        try {
            BuyAgainModel model = BuyAgainModel.load(database.modelBytes());
            ScoringServer server = ScoringServer.start(new ShopApi(database, model), options.host(), options.port(), options.threads());
            return new ScoringService(database, server);
        } catch (RuntimeException e) {
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

    public Path referenceScores(Options options) {
        return ShopFiles.referenceScores(options.database());
    }

    @Override
    public void close() {
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
        System.out.println("scoring-service listening on " + service.baseUrl());
        System.out.flush();
    }
}
