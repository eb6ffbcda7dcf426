package io.loadsmith.examples.scoring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the shop database and {@code customers.csv} on first start and reuses them afterwards.
 *
 * <p>Generation writes to temporary files beside the target and moves them into place, so that a crash or a
 * second process starting at the same moment never leaves a half-written database.
 */
public final class ShopFiles {

    private static final Logger LOG = LoggerFactory.getLogger(ShopFiles.class);

    /** Bumped whenever generation changes, so that an old file is not mistaken for a current one. */
    static final String GENERATOR_VERSION = "1";

    private ShopFiles() {
    }

    /** The reference file beside a database. */
    public static Path referenceScores(Path database) {
        return database.toAbsolutePath().resolveSibling(ReferenceScores.FILE_NAME);
    }

    /** Opens the database at {@code database}, generating it from {@code seed} first if it does not exist. */
    public static ShopDatabase openOrGenerate(Path database, long seed, int customerCount) throws IOException {
        if (!Files.exists(database)) {
            generate(database, seed, customerCount);
        }
        ShopDatabase opened = ShopDatabase.open(database);
        checkMadeBy(opened, database, seed, customerCount);
        return opened;
    }

    /** Generates the shop, trains the model and writes the database and {@code customers.csv}. */
    public static void generate(Path database, long seed, int customerCount) throws IOException {
        long startNanos = System.nanoTime();
        Shop shop = ShopGenerator.generate(seed, customerCount);
        double[][] featureRows = Features.compute(shop);
        boolean[] labels = new boolean[customerCount];
        for (int i = 0; i < customerCount; i++) {
            labels[i] = shop.customers().get(i).boughtAgain();
        }
        long trainNanos = System.nanoTime();
        BuyAgainModel.Trained trained = BuyAgainModel.train(featureRows, labels, seed);
        long writeNanos = System.nanoTime();
        double[] probabilities = scores(trained.modelBytes(), featureRows);
        writeAtomically(database, shop, featureRows, trained, probabilities);
        LOG.info("generated {} customers ({} visits, {} orders) in {} ms, trained {} trees in {} ms"
                        + " (held-out AUC {}), wrote {} in {} ms",
                customerCount, shop.visits().size(), shop.orders().size(), millis(trainNanos - startNanos),
                BuyAgainModel.TREES, millis(writeNanos - trainNanos), String.format("%.4f", trained.holdoutAuc()),
                database, millis(System.nanoTime() - writeNanos));
    }

    private static double[] scores(byte[] modelBytes, double[][] featureRows) {
        BuyAgainModel model = BuyAgainModel.load(modelBytes);
        float[][] rows = new float[featureRows.length][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = BuyAgainModel.toFloats(featureRows[i]);
        }
        return model.probabilities(rows);
    }

    private static void writeAtomically(Path database, Shop shop, double[][] featureRows,
                                        BuyAgainModel.Trained trained, double[] probabilities) throws IOException {
        Path folder = database.toAbsolutePath().getParent();
        Files.createDirectories(folder);
        Path temporaryDatabase = Files.createTempFile(folder, "shop-", ".db.tmp");
        Path temporaryCsv = Files.createTempFile(folder, "customers-", ".csv.tmp");
        try {
            Files.delete(temporaryDatabase);
            ShopDatabase.write(temporaryDatabase, shop, featureRows, trained.modelBytes(), meta(shop, trained));
            Files.writeString(temporaryCsv, ReferenceScores.csv(probabilities), StandardCharsets.UTF_8);
            makeReadable(temporaryCsv);
            makeReadable(temporaryDatabase);
            Files.move(temporaryCsv, referenceScores(database), StandardCopyOption.ATOMIC_MOVE);
            Files.move(temporaryDatabase, database, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporaryDatabase);
            Files.deleteIfExists(temporaryCsv);
        }
    }

    /** Temporary files are private to their owner; the results are ordinary files. */
    private static void makeReadable(Path file) throws IOException {
        if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    private static Map<String, String> meta(Shop shop, BuyAgainModel.Trained trained) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("generator_version", GENERATOR_VERSION);
        meta.put("seed", Long.toString(shop.seed()));
        meta.put("customers", Integer.toString(shop.customers().size()));
        meta.put("model", "xgboost4j gbtree, " + BuyAgainModel.TREES + " trees, max_depth " + BuyAgainModel.MAX_DEPTH);
        meta.put("holdout_auc", String.format("%.4f", trained.holdoutAuc()));
        meta.put("features", String.join(",", Features.NAMES));
        return meta;
    }

    private static void checkMadeBy(ShopDatabase opened, Path database, long seed, int customerCount) {
        Map<String, String> meta = opened.meta();
        boolean same = GENERATOR_VERSION.equals(meta.get("generator_version"))
                && Long.toString(seed).equals(meta.get("seed"))
                && Integer.toString(customerCount).equals(meta.get("customers"));
        if (!same) {
            opened.close();
            throw new IllegalArgumentException(database + " was made by generator " + meta.get("generator_version")
                    + " with seed " + meta.get("seed") + " and " + meta.get("customers") + " customers, not by generator "
                    + GENERATOR_VERSION + " with seed " + seed + " and " + customerCount
                    + " customers: pass another --db or delete the file");
        }
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }
}
