package io.loadsmith.stall.admin;

import io.loadsmith.stall.BuildInfo;
import io.loadsmith.stall.observe.PauseObserver;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How an {@link AdminServer} listens and what it allows. Immutable; made with {@link #builder()}.
 *
 * <p>Defaults: {@code 127.0.0.1:7070}, no token, caps of 10 s per stall, 1 h of horizon, 50 % stalled
 * share, 64 KiB request bodies. The caps cannot be raised through the API.
 */
public final class AdminConfig {

    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 7070;

    private final String host;
    private final int port;
    private final String token;
    private final Path tokenFile;
    private final Duration maxStall;
    private final Duration maxHorizon;
    private final double maxStalledShare;
    private final int maxBodyBytes;
    private final Supplier<Map<String, Object>> healthDetails;
    private final Supplier<Optional<String>> armRefusal;
    private final String version;
    private final PauseObserver pauses;

    private AdminConfig(Builder b) {
        this.host = b.host;
        this.port = b.port;
        this.token = b.token;
        this.tokenFile = b.tokenFile;
        this.maxStall = b.maxStall;
        this.maxHorizon = b.maxHorizon;
        this.maxStalledShare = b.maxStalledShare;
        this.maxBodyBytes = b.maxBodyBytes;
        this.healthDetails = b.healthDetails;
        this.armRefusal = b.armRefusal;
        this.version = b.version;
        this.pauses = b.pauses;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Host name or address to bind (default 127.0.0.1). */
    public String host() {
        return host;
    }

    /** Port to bind; 0 picks a free one (default 7070). */
    public int port() {
        return port;
    }

    /** The bearer token given as a value, or null. */
    public String token() {
        return token;
    }

    /** The file the bearer token is read from at start ({@link TokenFile}: its first line, trimmed), or null. */
    public Path tokenFile() {
        return tokenFile;
    }

    /** Longest single stall an arm request may ask for. */
    public Duration maxStall() {
        return maxStall;
    }

    /** Longest horizon an arm request may ask for. */
    public Duration maxHorizon() {
        return maxHorizon;
    }

    /** Largest share of the horizon, from 0 to 1, that a plan may spend stalled. */
    public double maxStalledShare() {
        return maxStalledShare;
    }

    /** Largest request body, in bytes. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /** Extra entries merged into {@code GET /health} (e.g. the agent's instrumented entry points). */
    public Supplier<Map<String, Object>> healthDetails() {
        return healthDetails;
    }

    /** Asked before every arm: a reason makes {@code POST /arm} answer 409 with it. */
    public Supplier<Optional<String>> armRefusal() {
        return armRefusal;
    }

    /** The version reported by {@code GET /health}. */
    public String version() {
        return version;
    }

    /** The observer whose windows {@code GET /pauses} serves, or null when real pauses are not observed. */
    public PauseObserver pauses() {
        return pauses;
    }

    /** Builds an {@link AdminConfig}; every setter returns this builder. */
    public static final class Builder {
        private String host = DEFAULT_HOST;
        private int port = DEFAULT_PORT;
        private String token;
        private Path tokenFile;
        private Duration maxStall = Duration.ofSeconds(10);
        private Duration maxHorizon = Duration.ofHours(1);
        private double maxStalledShare = 0.5;
        private int maxBodyBytes = 64 * 1024;
        private Supplier<Map<String, Object>> healthDetails = Map::of;
        private Supplier<Optional<String>> armRefusal = Optional::empty;
        private String version = BuildInfo.current().version();
        private PauseObserver pauses;

        private Builder() {
        }

        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port: must be 0-65535 (got " + port + ")");
            }
            this.port = port;
            return this;
        }

        /** The bearer token clients must send ({@code Authorization: Bearer TOKEN}); null or blank for none. */
        public Builder token(String token) {
            this.token = token == null || token.isBlank() ? null : token.strip();
            return this;
        }

        /** A file holding the bearer token (read once at start by the rule of {@link TokenFile}). */
        public Builder tokenFile(Path tokenFile) {
            this.tokenFile = tokenFile;
            return this;
        }

        public Builder maxStall(Duration maxStall) {
            this.maxStall = positive(maxStall, "maxStall");
            return this;
        }

        public Builder maxHorizon(Duration maxHorizon) {
            this.maxHorizon = positive(maxHorizon, "maxHorizon");
            return this;
        }

        /** Largest stalled share of the horizon, in (0, 1]. */
        public Builder maxStalledShare(double maxStalledShare) {
            if (!(maxStalledShare > 0 && maxStalledShare <= 1)) {
                throw new IllegalArgumentException("maxStalledShare: must be in (0, 1] (got " + maxStalledShare + ")");
            }
            this.maxStalledShare = maxStalledShare;
            return this;
        }

        public Builder maxBodyBytes(int maxBodyBytes) {
            if (maxBodyBytes < 256) {
                throw new IllegalArgumentException("maxBodyBytes: must be >= 256 (got " + maxBodyBytes + ")");
            }
            this.maxBodyBytes = maxBodyBytes;
            return this;
        }

        public Builder healthDetails(Supplier<Map<String, Object>> healthDetails) {
            this.healthDetails = Objects.requireNonNull(healthDetails, "healthDetails");
            return this;
        }

        public Builder armRefusal(Supplier<Optional<String>> armRefusal) {
            this.armRefusal = Objects.requireNonNull(armRefusal, "armRefusal");
            return this;
        }

        public Builder version(String version) {
            this.version = Objects.requireNonNull(version, "version");
            return this;
        }

        /**
         * The observer whose windows {@code GET /pauses} serves and whose counts {@code /health} and
         * {@code /metrics} show; null (the default) for none. The server tells it of every run armed and
         * disarmed through {@code POST /arm} and {@code POST /disarm} ({@link PauseObserver#runArmed},
         * {@link PauseObserver#runEnded}: an observer of {@link PauseObserver#whenArmed} observes around
         * them). The server does not close it.
         */
        public Builder pauses(PauseObserver pauses) {
            this.pauses = pauses;
            return this;
        }

        public AdminConfig build() {
            return new AdminConfig(this);
        }

        private static Duration positive(Duration duration, String name) {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(name + ": must be > 0 (got " + duration + ")");
            }
            return duration;
        }
    }
}
