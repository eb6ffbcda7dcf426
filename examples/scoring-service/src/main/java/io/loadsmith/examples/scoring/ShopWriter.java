package io.loadsmith.examples.scoring;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/** Writes a generated shop into an empty SQLite database, in one transaction. */
final class ShopWriter {

    private static final List<String> SCHEMA = List.of(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE products (product_id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL,"
                    + " price_cents INTEGER NOT NULL)",
            "CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, signup_day INTEGER NOT NULL,"
                    + " age_years INTEGER NOT NULL, newsletter INTEGER NOT NULL, bought_again INTEGER NOT NULL)",
            "CREATE TABLE visits (customer_id INTEGER NOT NULL, day INTEGER NOT NULL, pages INTEGER NOT NULL,"
                    + " mobile INTEGER NOT NULL)",
            "CREATE TABLE baskets (basket_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, day INTEGER NOT NULL,"
                    + " items INTEGER NOT NULL, value_cents INTEGER NOT NULL, converted INTEGER NOT NULL)",
            "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, day INTEGER NOT NULL,"
                    + " items INTEGER NOT NULL, value_cents INTEGER NOT NULL, discounted INTEGER NOT NULL)",
            "CREATE TABLE returns (order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL, day INTEGER NOT NULL,"
                    + " value_cents INTEGER NOT NULL)",
            "CREATE TABLE model (name TEXT PRIMARY KEY, format TEXT NOT NULL, bytes BLOB NOT NULL)");

    private static final List<String> INDEXES = List.of(
            "CREATE INDEX visits_by_customer ON visits (customer_id, day)",
            "CREATE INDEX orders_by_customer ON orders (customer_id, day)",
            "CREATE INDEX baskets_by_customer ON baskets (customer_id, day)");

    private ShopWriter() {
    }

    static void write(Connection connection, Shop shop, double[][] featureRows, byte[] modelBytes,
                      Map<String, String> meta) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = OFF");
            statement.execute("PRAGMA synchronous = OFF");
        }
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            for (String sql : SCHEMA) {
                statement.execute(sql);
            }
            statement.execute(featureTable());
        }
        insertAll(connection, "INSERT INTO meta VALUES (?, ?)", List.copyOf(meta.entrySet()),
                (row, entry) -> row.setString(1, entry.getKey()).setString(2, entry.getValue()));
        insertAll(connection, "INSERT INTO products VALUES (?, ?, ?, ?)", shop.products(),
                (row, p) -> row.setLong(1, p.productId()).setString(2, p.name()).setString(3, p.category())
                        .setLong(4, p.priceCents()));
        insertAll(connection, "INSERT INTO customers VALUES (?, ?, ?, ?, ?)", shop.customers(),
                (row, c) -> row.setLong(1, c.customerId()).setLong(2, c.signupDay()).setLong(3, c.ageYears())
                        .setBoolean(4, c.newsletter()).setBoolean(5, c.boughtAgain()));
        insertAll(connection, "INSERT INTO visits VALUES (?, ?, ?, ?)", shop.visits(),
                (row, v) -> row.setLong(1, v.customerId()).setLong(2, v.day()).setLong(3, v.pages())
                        .setBoolean(4, v.mobile()));
        insertAll(connection, "INSERT INTO baskets VALUES (?, ?, ?, ?, ?, ?)", shop.baskets(),
                (row, b) -> row.setLong(1, b.basketId()).setLong(2, b.customerId()).setLong(3, b.day())
                        .setLong(4, b.items()).setLong(5, b.valueCents()).setBoolean(6, b.converted()));
        insertAll(connection, "INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)", shop.orders(),
                (row, o) -> row.setLong(1, o.orderId()).setLong(2, o.customerId()).setLong(3, o.day())
                        .setLong(4, o.items()).setLong(5, o.valueCents()).setBoolean(6, o.discounted()));
        insertAll(connection, "INSERT INTO returns VALUES (?, ?, ?, ?)", shop.returns(),
                (row, r) -> row.setLong(1, r.orderId()).setLong(2, r.customerId()).setLong(3, r.day())
                        .setLong(4, r.valueCents()));
        insertFeatures(connection, shop.customers(), featureRows);
        try (PreparedStatement statement = connection.prepareStatement("INSERT INTO model VALUES ('buy_again', 'xgboost-ubj', ?)")) {
            statement.setBytes(1, modelBytes);
            statement.execute();
        }
        try (Statement statement = connection.createStatement()) {
            for (String sql : INDEXES) {
                statement.execute(sql);
            }
        }
        connection.commit();
    }

    private static String featureTable() {
        StringBuilder sql = new StringBuilder("CREATE TABLE customer_features (customer_id INTEGER PRIMARY KEY");
        for (String name : Features.NAMES.subList(0, Features.TABLE_COLUMNS)) {
            sql.append(", ").append(name).append(" REAL NOT NULL");
        }
        return sql.append(")").toString();
    }

    private static void insertFeatures(Connection connection, List<Shop.Customer> customers, double[][] featureRows)
            throws SQLException {
        String placeholders = ", ?".repeat(Features.TABLE_COLUMNS);
        try (PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO customer_features VALUES (?" + placeholders + ")")) {
            for (int i = 0; i < customers.size(); i++) {
                statement.setLong(1, customers.get(i).customerId());
                for (int column = 0; column < Features.TABLE_COLUMNS; column++) {
                    statement.setDouble(column + 2, featureRows[i][column]);
                }
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** Binds one row of a prepared insert; returns itself so that binds chain. */
    @FunctionalInterface
    private interface Binder<T> {
        void bind(Row row, T value) throws SQLException;
    }

    /** A chaining view of a prepared statement's parameters. */
    private record Row(PreparedStatement statement) {
        Row setLong(int index, long value) throws SQLException {
            statement.setLong(index, value);
            return this;
        }

        Row setString(int index, String value) throws SQLException {
            statement.setString(index, value);
            return this;
        }

        Row setBoolean(int index, boolean value) throws SQLException {
            statement.setInt(index, value ? 1 : 0);
            return this;
        }
    }

    private static <T> void insertAll(Connection connection, String sql, List<T> values, Binder<T> binder)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            Row row = new Row(statement);
            for (T value : values) {
                binder.bind(row, value);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }
}
