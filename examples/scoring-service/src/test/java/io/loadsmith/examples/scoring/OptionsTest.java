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
        assertThat(options.database()).isEqualTo(
                Path.of(System.getProperty("user.home"), ".loadsmith", "scoring", "seed1-20000", "shop.db"));
    }

    @Test
    void every_option_is_read() {
        Options options = Options.parse("--port", "0", "--threads", "1", "--db", "x/shop.db", "--seed", "42",
                "--customers", "500", "--host", "0.0.0.0");

        assertThat(options).isEqualTo(new Options(0, 1, Path.of("x/shop.db"), 42, 500, "0.0.0.0"));
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
                .hasMessage("unknown option --colour (known: --port, --threads, --db, --seed, --customers, --host)");
    }
}
