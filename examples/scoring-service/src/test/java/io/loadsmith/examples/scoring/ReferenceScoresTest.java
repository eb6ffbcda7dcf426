package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ReferenceScoresTest {

    /** The copy the scenarios read, checked in beside them. */
    static final Path CHECKED_IN = Path.of("..", "scenarios", "data", "customers.csv");

    @Test
    void the_checked_in_customers_csv_is_what_the_default_seed_generates() throws Exception {
        Path database = TestShops.database(Options.DEFAULT_SEED, Options.DEFAULT_CUSTOMERS);

        assertThat(Files.readString(CHECKED_IN)).isEqualTo(Files.readString(ShopFiles.referenceScores(database)));
    }

    @Test
    void the_file_has_a_header_and_one_line_per_customer_with_six_decimals() {
        assertThat(ReferenceScores.csv(new double[] {0.25, 0.0123456789}))
                .isEqualTo("customer_id,expected_score\n1,0.250000\n2,0.012346\n");
    }
}
