package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShopDatabaseTest {

    private final Path database = TestShops.database(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);

    @Test
    void every_customer_reads_back_the_features_the_model_was_trained_on() {
        double[][] expected = Features.compute(ShopGenerator.generate(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS));
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            for (int i = 0; i < expected.length; i++) {
                assertThat(opened.features(i + 1)).as("customer %d", i + 1).hasValue(expected[i]);
            }
        }
    }

    @Test
    void every_customer_scores_as_customers_csv_says() {
        Map<Long, String> expected = ReferenceScores.read(ShopFiles.referenceScores(database));
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            BuyAgainModel model = BuyAgainModel.load(opened.modelBytes());

            assertThat(expected).hasSize(TestShops.SMALL_CUSTOMERS);
            expected.forEach((customerId, score) -> {
                double probability = model.probability(BuyAgainModel.toFloats(opened.features(customerId).orElseThrow()));
                assertThat(BuyAgainModel.rounded(probability).toPlainString()).as("customer %d", customerId).isEqualTo(score);
            });
        }
    }

    @Test
    void an_unknown_customer_has_no_features() {
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            assertThat(opened.features(TestShops.SMALL_CUSTOMERS + 1)).isEmpty();
            assertThat(opened.hasCustomer(TestShops.SMALL_CUSTOMERS + 1)).isFalse();
            assertThat(opened.hasCustomer(TestShops.SMALL_CUSTOMERS)).isTrue();
        }
    }

    @Test
    void the_file_says_what_made_it() {
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            assertThat(opened.meta()).containsEntry("seed", "3").containsEntry("customers", "2000")
                    .containsEntry("generator_version", ShopFiles.GENERATOR_VERSION)
                    .containsEntry("features", String.join(",", Features.NAMES));
        }
    }

    @Test
    void a_file_made_with_another_seed_is_refused() {
        assertThatThrownBy(() -> ShopFiles.openOrGenerate(database, 4, TestShops.SMALL_CUSTOMERS))
                .hasMessageContaining("with seed 3 and 2000 customers, not by generator 1 with seed 4 and 2000 customers");
    }

    @Test
    void an_existing_file_is_reused() throws Exception {
        long modifiedMillis = database.toFile().lastModified();
        try (ShopDatabase opened = ShopFiles.openOrGenerate(database, TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS)) {
            assertThat(opened.hasCustomer(1)).isTrue();
        }
        assertThat(database.toFile().lastModified()).isEqualTo(modifiedMillis);
    }
}
