package io.loadsmith.examples.scoring;

import java.nio.file.Path;

/**
 * Command-line options of the scoring service.
 *
 * <pre>
 * java -jar scoring-service.jar [--port 8080] [--threads 8] [--db PATH] [--seed 1] [--customers 20000] [--host 127.0.0.1]
 *                                [--grpc-port 9090]
 * </pre>
 *
 * @param port      TCP port on {@code host}; 0 picks any free port
 * @param threads   Jetty worker threads that run requests (1 mimics a one-worker service)
 * @param database  the SQLite file; generated from {@code seed} on first start, reused afterwards
 * @param seed      seed of the synthetic shop and of the model
 * @param customers number of customers generated
 * @param host      address to bind: 127.0.0.1 unless told ({@code 0.0.0.0} in a container, where other pods call it)
 * @param grpcPort  TCP port on {@code host} of the gRPC API ({@code scoring.Scorer}); 0 picks any free port;
 *                  {@link #GRPC_OFF} (no {@code --grpc-port}) serves no gRPC
 */
public record Options(int port, int threads, Path database, long seed, int customers, String host, int grpcPort) {

    public static final int DEFAULT_PORT = 8080;
    public static final int DEFAULT_THREADS = 8;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_CUSTOMERS = 20_000;
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** {@link #grpcPort} when no gRPC port is served (the default). */
    public static final int GRPC_OFF = -1;

    /** Options bound to {@link #DEFAULT_HOST}, HTTP only. */
    public Options(int port, int threads, Path database, long seed, int customers) {
        this(port, threads, database, seed, customers, DEFAULT_HOST);
    }

    /** HTTP only. */
    public Options(int port, int threads, Path database, long seed, int customers, String host) {
        this(port, threads, database, seed, customers, host, GRPC_OFF);
    }

    public Options {
        check(port >= 0 && port <= 65_535, "--port must be 0..65535 (got " + port + ")");
        check(threads >= 1 && threads <= 1_000, "--threads must be 1..1000 (got " + threads + ")");
        check(customers >= 100 && customers <= 1_000_000, "--customers must be 100..1000000 (got " + customers + ")");
        check(!host.isBlank(), "--host must not be empty");
        check(grpcPort == GRPC_OFF || grpcPort >= 0 && grpcPort <= 65_535, "--grpc-port must be 0..65535 (got " + grpcPort + ")");
        check(grpcPort != port || port == 0, "--grpc-port must differ from --port (both " + port + ")");
    }

    /** These options with the gRPC API on {@code grpcPort} (0: any free port). */
    public Options withGrpcPort(int grpcPort) {
        return new Options(port, threads, database, seed, customers, host, grpcPort);
    }

    /** Whether the gRPC API is served. */
    public boolean servesGrpc() {
        return grpcPort != GRPC_OFF;
    }

    /** Parses {@code --name value} pairs; throws {@link IllegalArgumentException} with a message a user can act on. */
    public static Options parse(String... args) {
        int port = DEFAULT_PORT;
        int threads = DEFAULT_THREADS;
        Path database = null;
        long seed = DEFAULT_SEED;
        int customers = DEFAULT_CUSTOMERS;
        String host = DEFAULT_HOST;
        int grpcPort = GRPC_OFF;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            check(i + 1 < args.length, name + " needs a value");
            String value = args[i + 1];
            switch (name) {
                case "--port" -> port = parseInt(name, value);
                case "--threads" -> threads = parseInt(name, value);
                case "--db" -> database = Path.of(value);
                case "--seed" -> seed = parseLong(name, value);
                case "--customers" -> customers = parseInt(name, value);
                case "--host" -> host = value;
                case "--grpc-port" -> grpcPort = parseInt(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name
                        + " (known: --port, --threads, --db, --seed, --customers, --host, --grpc-port)");
            }
        }
        return new Options(port, threads, database == null ? defaultDatabase(seed, customers) : database, seed, customers,
                host, grpcPort);
    }

    /** {@code ~/.loadsmith/scoring/seed1-20000/shop.db}: one folder per seed and size, so they never mix. */
    static Path defaultDatabase(long seed, int customers) {
        return Path.of(System.getProperty("user.home"), ".loadsmith", "scoring",
                "seed" + seed + "-" + customers, "shop.db");
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer (got " + value + ")");
        }
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer (got " + value + ")");
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
