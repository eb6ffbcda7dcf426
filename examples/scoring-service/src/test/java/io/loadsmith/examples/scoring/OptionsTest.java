package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void no_options_give_the_defaults() {
        Options options = Options.parse();

        assertThat(options.port()).isEqualTo(8080);
        assertThat(options.threads()).isEqualTo(8);
        assertThat(options.seed()).isEqualTo(1);
        assertThat(options.customers()).isEqualTo(20_000);
        assertThat(options.servesGrpc()).isFalse();
        assertThat(options.database()).isEqualTo(
                Path.of(System.getProperty("user.home"), ".loadsmith", "scoring", "seed1-20000", "shop.db"));
    }

    @Test
    void every_option_is_read() {
        Options options = Options.parse("--port", "0", "--threads", "1", "--db", "x/shop.db", "--seed", "42",
                "--customers", "500", "--host", "0.0.0.0", "--grpc-port", "9090");

        assertThat(options).isEqualTo(new Options(0, 1, Path.of("x/shop.db"), 42, 500, "0.0.0.0", 9090));
        assertThat(options.servesGrpc()).isTrue();
    }

    @Test
    void the_default_database_depends_on_seed_and_size() {
        assertThat(Options.parse("--seed", "2", "--customers", "300").database().toString())
                .endsWith("seed2-300/shop.db");
    }

    @Test
    void bad_options_name_the_option() {
        assertThatThrownBy(() -> Options.parse("--port", "x")).hasMessage("--port must be an integer (got x)");
        assertThatThrownBy(() -> Options.parse("--threads", "0")).hasMessage("--threads must be 1..1000 (got 0)");
        assertThatThrownBy(() -> Options.parse("--seed")).hasMessage("--seed needs a value");
        assertThatThrownBy(() -> Options.parse("--colour", "red"))
                .hasMessage("unknown option --colour (known: --port, --threads, --db, --seed, --customers, --host, --grpc-port)");
    }

    @Test
    void a_grpc_port_of_zero_picks_a_free_one_and_must_not_be_the_http_port() {
        assertThat(Options.parse("--port", "0", "--grpc-port", "0").grpcPort()).isZero();
        assertThatThrownBy(() -> Options.parse("--grpc-port", "70000")).hasMessage("--grpc-port must be 0..65535 (got 70000)");
        assertThatThrownBy(() -> Options.parse("--port", "9090", "--grpc-port", "9090"))
                .hasMessage("--grpc-port must differ from --port (both 9090)");
    }
}
