package io.loadsmith.examples.scoring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shops generated once per test JVM into fresh folders under {@code target/test-shops/}, shared by the tests
 * (generation and training take seconds).
 */
final class TestShops {

    /** A small shop for the endpoint and database tests. */
    static final long SMALL_SEED = 3;
    static final int SMALL_CUSTOMERS = 2_000;

    private static final Map<String, Path> DATABASES = new ConcurrentHashMap<>();

    private TestShops() {
    }

    /** The database of {@code seed} and {@code customers}; {@code customers.csv} lies beside it. */
    static Path database(long seed, int customers) {
        return DATABASES.computeIfAbsent(seed + "-" + customers, key -> generate(seed, customers));
    }

    private static Path generate(long seed, int customers) {
        try {
            Path root = Files.createDirectories(Path.of("target", "test-shops"));
            Path folder = Files.createTempDirectory(root, "seed" + seed + "-" + customers + "-");
            Path database = folder.resolve("shop.db");
            ShopFiles.generate(database, seed, customers);
            return database;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
