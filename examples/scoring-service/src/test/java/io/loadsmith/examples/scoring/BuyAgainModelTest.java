package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BuyAgainModelTest {

    @Test
    void auc_is_the_share_of_buyer_non_buyer_pairs_ranked_right_with_ties_as_half() {
        double[] scores = {0.1, 0.4, 0.35, 0.8, 0.4};
        boolean[] labels = {false, false, true, true, true};

        // buyers 0.35, 0.8, 0.4 against non-buyers 0.1, 0.4: (1 + 0) + (1 + 1) + (1 + 0.5) = 4.5 of 6
        assertThat(BuyAgainModel.auc(scores, labels)).isEqualTo(0.75);
    }

    @Test
    void scores_are_rounded_to_exactly_six_decimals() {
        assertThat(BuyAgainModel.rounded(0.1234565).toPlainString()).isEqualTo("0.123456");
        assertThat(BuyAgainModel.rounded(0.5).toPlainString()).isEqualTo("0.500000");
        assertThat(BuyAgainModel.rounded(1e-9).toPlainString()).isEqualTo("0.000000");
    }

    @Test
    void the_same_seed_trains_the_same_model() {
        Shop shop = ShopGenerator.generate(5, 1_000);
        double[][] rows = Features.compute(shop);
        boolean[] labels = labels(shop);

        BuyAgainModel.Trained first = BuyAgainModel.train(rows, labels, 5);
        BuyAgainModel.Trained second = BuyAgainModel.train(rows, labels, 5);

        assertThat(second.modelBytes()).isEqualTo(first.modelBytes());
        assertThat(second.holdoutAuc()).isEqualTo(first.holdoutAuc());
    }

    @Test
    void one_row_at_a_time_scores_the_same_as_all_at_once() throws Exception {
        Path database = TestShops.database(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);
        Shop shop = ShopGenerator.generate(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);
        float[][] rows = java.util.Arrays.stream(Features.compute(shop)).map(BuyAgainModel::toFloats).toArray(float[][]::new);
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            BuyAgainModel model = BuyAgainModel.load(opened.modelBytes());

            double[] together = model.probabilities(rows);
            for (int i = 0; i < rows.length; i++) {
                assertThat(model.probability(rows[i])).as("customer %d", i + 1).isEqualTo(together[i]);
            }
        }
    }

    @Test
    void the_model_predicts_better_than_chance_on_customers_it_did_not_see() throws Exception {
        Path database = TestShops.database(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            assertThat(Double.parseDouble(opened.meta().get("holdout_auc"))).isBetween(0.70, 0.90);
        }
    }

    @Test
    void a_row_of_the_wrong_length_is_refused() throws Exception {
        Path database = TestShops.database(TestShops.SMALL_SEED, TestShops.SMALL_CUSTOMERS);
        try (ShopDatabase opened = ShopDatabase.open(database)) {
            BuyAgainModel model = BuyAgainModel.load(opened.modelBytes());

            assertThatThrownBy(() -> model.probability(new float[3])).hasMessage("expected 21 features, got 3");
        }
    }

    static boolean[] labels(Shop shop) {
        boolean[] labels = new boolean[shop.customers().size()];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = shop.customers().get(i).boughtAgain();
        }
        return labels;
    }
}
