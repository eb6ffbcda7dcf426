package io.loadsmith.examples.scoring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.sqlite.SQLiteConfig;

/**
 * The shop in an embedded SQLite file: raw tables ({@code customers}, {@code visits}, {@code baskets},
 * {@code orders}, {@code returns}, {@code products}), the batch feature table {@code customer_features}, the
 * model ({@code model}) and what made them ({@code meta}).
 *
 * <p>{@link #write} builds a new file; {@link #open} reads one. Reads are thread-safe: each thread gets its own
 * read-only connection and prepared statements, closed by {@link #close()}.
 */
public final class ShopDatabase implements AutoCloseable {

    private final Path path;
    private final ThreadLocal<Reader> readers;
    private final ConcurrentLinkedQueue<Reader> openReaders = new ConcurrentLinkedQueue<>();

    private ShopDatabase(Path path) {
        this.path = path;
        this.readers = ThreadLocal.withInitial(this::newReader);
    }

    /** Opens an existing file read-only. */
    public static ShopDatabase open(Path path) {
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("no shop database at " + path);
        }
        return new ShopDatabase(path);
    }

    /** What made the file: seed, customers, model metadata. */
    public Map<String, String> meta() {
        return reader().meta();
    }

    /** The model's bytes, as written by {@link BuyAgainModel#train}. */
    public byte[] modelBytes() {
        return reader().modelBytes();
    }

    public List<Shop.Product> products() {
        return reader().products();
    }

    /** Whether the customer exists. */
    public boolean hasCustomer(long customerId) {
        return reader().hasCustomer(customerId);
    }

    /**
     * The model's features of a customer, in the order of {@link Features#NAMES}: the stored feature row plus the
     * last 30 days computed from the raw tables. Empty for an unknown customer.
     */
    public Optional<double[]> features(long customerId) {
        return reader().features(customerId);
    }

    @Override
    public void close() {
        Reader reader;
        while ((reader = openReaders.poll()) != null) {
            reader.close();
        }
    }

    private Reader reader() {
        Reader reader = readers.get();
        if (reader.closed) {
            readers.remove();
            reader = readers.get();
        }
        return reader;
    }

    private Reader newReader() {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try {
            Reader reader = new Reader(config.createConnection("jdbc:sqlite:" + path));
            openReaders.add(reader);
            return reader;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open " + path, e);
        }
    }

    /** One thread's connection and statements. */
    private static final class Reader {
        private static final String FEATURE_ROW = "SELECT " + String.join(", ", Features.NAMES.subList(0, Features.TABLE_COLUMNS))
                + " FROM customer_features WHERE customer_id = ?";
        private static final String RECENT = "SELECT"
                + " (SELECT COUNT(*) FROM visits WHERE customer_id = ?1 AND day >= ?2),"
                + " (SELECT COUNT(*) FROM orders WHERE customer_id = ?1 AND day >= ?2),"
                + " (SELECT COALESCE(SUM(value_cents), 0) FROM orders WHERE customer_id = ?1 AND day >= ?2)";

        final Connection connection;
        final PreparedStatement featureRow;
        final PreparedStatement recent;
        final PreparedStatement customer;
        volatile boolean closed;

        Reader(Connection connection) throws SQLException {
            this.connection = connection;
            this.featureRow = connection.prepareStatement(FEATURE_ROW);
            this.recent = connection.prepareStatement(RECENT);
            this.customer = connection.prepareStatement("SELECT 1 FROM customers WHERE customer_id = ?");
        }

        Optional<double[]> features(long customerId) {
            try {
                double[] row = new double[Features.NAMES.size()];
                featureRow.setLong(1, customerId);
                try (ResultSet result = featureRow.executeQuery()) {
                    if (!result.next()) {
                        return Optional.empty();
                    }
                    for (int i = 0; i < Features.TABLE_COLUMNS; i++) {
                        row[i] = result.getDouble(i + 1);
                    }
                }
                recent.setLong(1, customerId);
                recent.setInt(2, Shop.RECENT_FROM_DAY);
                try (ResultSet result = recent.executeQuery()) {
                    result.next();
                    row[Features.TABLE_COLUMNS] = result.getLong(1);
                    row[Features.TABLE_COLUMNS + 1] = result.getLong(2);
                    row[Features.TABLE_COLUMNS + 2] = result.getLong(3) / 100.0;
                }
                return Optional.of(row);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read customer " + customerId, e);
            }
        }

        boolean hasCustomer(long customerId) {
            try {
                customer.setLong(1, customerId);
                try (ResultSet result = customer.executeQuery()) {
                    return result.next();
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot read customer " + customerId, e);
            }
        }

        Map<String, String> meta() {
            Map<String, String> meta = new LinkedHashMap<>();
            query("SELECT key, value FROM meta ORDER BY key", result -> meta.put(result.getString(1), result.getString(2)));
            return meta;
        }

        byte[] modelBytes() {
            List<byte[]> bytes = new ArrayList<>();
            query("SELECT bytes FROM model WHERE name = 'buy_again'", result -> bytes.add(result.getBytes(1)));
            if (bytes.isEmpty()) {
                throw new IllegalStateException("the database has no model");
            }
            return bytes.get(0);
        }

        List<Shop.Product> products() {
            List<Shop.Product> products = new ArrayList<>();
            query("SELECT product_id, name, category, price_cents FROM products ORDER BY product_id",
                    result -> products.add(new Shop.Product(result.getInt(1), result.getString(2),
                            result.getString(3), result.getLong(4))));
            return products;
        }

        private void query(String sql, RowConsumer consumer) {
            try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
                while (result.next()) {
                    consumer.accept(result);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot run " + sql, e);
            }
        }

        void close() {
            closed = true;
            try {
                connection.close();
            } catch (SQLException e) {
                // nothing to do: the file is read-only
            }
        }
    }

    @FunctionalInterface
    private interface RowConsumer {
        void accept(ResultSet result) throws SQLException;
    }

    /**
     * Writes {@code shop}, its feature table and the model into a new file at {@code path} (which must not exist).
     *
     * @param featureRows rows of {@link Features#compute}, in customer order
     */
    public static void write(Path path, Shop shop, double[][] featureRows, byte[] modelBytes, Map<String, String> meta)
            throws IOException {
        if (Files.exists(path)) {
            throw new IOException(path + " exists already");
        }
        try (Connection connection = new SQLiteConfig().createConnection("jdbc:sqlite:" + path)) {
            ShopWriter.write(connection, shop, featureRows, modelBytes, meta);
        } catch (SQLException e) {
            throw new IOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }
}
