package io.loadsmith.stall.admin.javalin;

import io.javalin.config.JavalinState;
import io.javalin.plugin.Plugin;
import io.loadsmith.stall.admin.AdminConfig;
import io.loadsmith.stall.admin.AdminServer;
import io.loadsmith.stall.clock.Clock;
import io.loadsmith.stall.control.StallController;
import io.loadsmith.stall.gate.StallGate;
import io.loadsmith.stall.observe.PauseObserver;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Embeds loadsmith's stalls in a Javalin 7 service without the agent: a gate before every handler and
 * again after it (before Javalin writes the response), a stall controller, and the admin API on the JDK
 * HTTP server, started and stopped with the Javalin server.
 *
 * <pre>{@code
 * Javalin app = Javalin.create(config -> {
 *     config.registerPlugin(new LoadsmithPlugin(stalls -> {
 *         stalls.port = 7070;
 *         stalls.tokenFile = Path.of("/run/secrets/loadsmith-token");
 *     }));
 *     config.routes.get("/score/{id}", ctx -> ctx.result("..."));
 * }).start(8080);
 * }</pre>
 */
public final class LoadsmithPlugin extends Plugin<LoadsmithPlugin.Config> {

    /** The plugin's settings, set in the {@code Consumer<Config>} given to the constructor. */
    public static final class Config {
        /** Address of the admin API (default 127.0.0.1: a non-loopback address needs a token). */
        public String host = AdminConfig.DEFAULT_HOST;
        /** Port of the admin API; 0 picks a free one (see {@link #adminAddress()}). */
        public int port = AdminConfig.DEFAULT_PORT;
        /** Bearer token of the admin API, or null. */
        public String token;
        /** File holding the bearer token, or null. */
        public Path tokenFile;
        /** Cap on one stall (the API cannot raise it). */
        public Duration maxStall = Duration.ofSeconds(10);
        /** Cap on the horizon of a plan. */
        public Duration maxHorizon = Duration.ofHours(1);
        /** Cap on the stalled share of a plan's horizon, in (0, 1]. */
        public double maxStalledShare = 0.5;
        /** Whether to serve the admin API (false: arm through {@link #controller()} yourself). */
        public boolean adminApi = true;
        /** Whether the controller's own thread also burns a core through {@code spin} windows. */
        public boolean burnCoreDuringSpin = false;
        /** Version shown by {@code GET /health}. */
        public String version = "javalin-plugin";
        /** The gate to hold requests at; null for a new gate of this app's own. */
        public StallGate gate;
        /**
         * Whether to observe the app's real pauses (safepoints through JFR, a sleeper thread: docs/pauses.md)
         * from when the server starts, served at {@code GET /pauses}.
         */
        public boolean observe = true;
    }

    private volatile StallGate gate;
    private volatile StallController controller;
    private volatile AdminServer adminServer;
    private volatile PauseObserver pauses;

    /** A plugin with the defaults. */
    public LoadsmithPlugin() {
        this(config -> { });
    }

    public LoadsmithPlugin(Consumer<Config> userConfig) {
        super(userConfig, new Config());
    }

    @Override
    public void onStart(JavalinState state) {
        Config config = pluginConfig;
        gate = config.gate != null ? config.gate : new StallGate();
        controller = new StallController(Clock.system(), gate, config.burnCoreDuringSpin);
        StallGate appGate = gate;
        state.routes.before(ctx -> appGate.pass());
        state.routes.after(ctx -> appGate.pass());
        state.events.serverStarting(() -> {
            if (config.observe) {
                pauses = PauseObserver.start(Clock.system());
            }
            if (config.adminApi) {
                AdminConfig adminConfig = AdminConfig.builder()
                        .host(config.host).port(config.port).token(config.token).tokenFile(config.tokenFile)
                        .maxStall(config.maxStall).maxHorizon(config.maxHorizon).maxStalledShare(config.maxStalledShare)
                        .version(config.version).pauses(pauses)
                        .build();
                adminServer = AdminServer.start(adminConfig, controller);
            }
        });
        state.events.serverStopped(this::stop);
    }

    private void stop() {
        AdminServer server = adminServer;
        if (server != null) {
            server.close();
        }
        StallController stallController = controller;
        if (stallController != null) {
            stallController.close();
        }
        PauseObserver observer = pauses;
        if (observer != null) {
            observer.close();
        }
    }

    @Override
    public String name() {
        return "loadsmith";
    }

    /** The gate this app's requests pass (null before the app starts). */
    public StallGate gate() {
        return gate;
    }

    /** The stall controller of this app (null before the app starts). */
    public StallController controller() {
        return controller;
    }

    /** The observer of this app's real pauses, or null (before the server starts, or with {@code observe = false}). */
    public PauseObserver pauses() {
        return pauses;
    }

    /** Where the admin API listens, or null if it is not started (yet) or turned off. */
    public InetSocketAddress adminAddress() {
        AdminServer server = adminServer;
        return server == null ? null : server.address();
    }
}
