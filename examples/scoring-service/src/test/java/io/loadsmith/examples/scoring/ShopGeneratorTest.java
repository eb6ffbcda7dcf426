package io.loadsmith.examples.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShopGeneratorTest {

    @Test
    void the_same_seed_gives_the_same_shop() {
        assertThat(ShopGenerator.generate(7, 1_000)).isEqualTo(ShopGenerator.generate(7, 1_000));
    }

    @Test
    void another_seed_gives_another_shop() {
        Shop seven = ShopGenerator.generate(7, 1_000);
        Shop eight = ShopGenerator.generate(8, 1_000);

        assertThat(eight.customers()).isNotEqualTo(seven.customers());
        assertThat(eight.visits()).isNotEqualTo(seven.visits());
        assertThat(eight.orders()).isNotEqualTo(seven.orders());
        assertThat(eight.products()).isNotEqualTo(seven.products());
    }

    @Test
    void a_bigger_shop_starts_with_the_same_customers() {
        Shop small = ShopGenerator.generate(7, 100);
        Shop big = ShopGenerator.generate(7, 200);

        assertThat(big.customers().subList(0, 100)).isEqualTo(small.customers());
    }

    @Test
    void customers_are_numbered_from_one_and_every_event_is_theirs_and_before_the_scoring_day() {
        Shop shop = ShopGenerator.generate(1, 500);

        assertThat(shop.customers()).extracting(Shop.Customer::customerId)
                .containsExactlyElementsOf(IntStream.rangeClosed(1, 500).mapToObj(i -> (long) i).toList());
        assertThat(shop.products()).hasSize(200);
        assertThat(shop.visits()).allSatisfy(visit -> {
            assertThat(visit.customerId()).isBetween(1L, 500L);
            assertThat(visit.day()).isBetween(0, Shop.AS_OF_DAY - 1);
        });
        assertThat(shop.returns()).allSatisfy(r -> assertThat(r.day()).isLessThan(Shop.AS_OF_DAY));
    }

    @Test
    void the_shop_has_what_a_shop_has() {
        Shop shop = ShopGenerator.generate(1, 2_000);

        assertThat(shop.visits().size()).isBetween(20_000, 35_000);
        assertThat(shop.baskets().size()).isBetween(shop.orders().size(), shop.visits().size());
        assertThat(shop.returns().size()).isBetween(1, shop.orders().size() / 5);
        long buyers = shop.customers().stream().filter(Shop.Customer::boughtAgain).count();
        assertThat(buyers).isBetween(600L, 1_400L);
    }

    @Test
    void poisson_draws_have_the_asked_mean() {
        SplittableRandom random = new SplittableRandom(11);
        double mean = IntStream.range(0, 100_000).map(i -> ShopGenerator.poisson(random, 3.5)).average().orElseThrow();

        assertThat(mean).isBetween(3.47, 3.53);
    }

    @Test
    void gaussian_draws_have_mean_zero_and_variance_one() {
        SplittableRandom random = new SplittableRandom(11);
        double[] draws = IntStream.range(0, 100_000).mapToDouble(i -> ShopGenerator.gaussian(random)).toArray();
        double mean = java.util.Arrays.stream(draws).average().orElseThrow();
        double variance = java.util.Arrays.stream(draws).map(x -> (x - mean) * (x - mean)).average().orElseThrow();

        assertThat(mean).isBetween(-0.01, 0.01);
        assertThat(variance).isBetween(0.98, 1.02);
    }
}
