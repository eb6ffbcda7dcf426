package io.loadsmith.examples.scoring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates a {@link Shop} from a seed: the same seed and size give the same shop, value for value, on every
 * machine (only {@link SplittableRandom} and {@link StrictMath} are used).
 *
 * <p>Each customer has hidden traits (engagement, loyalty, whether and when they went quiet) that drive their
 * visits, baskets, orders and returns, and the probability that they buy again after {@link Shop#AS_OF_DAY}.
 * The model only sees what the history shows of those traits.
 */
public final class ShopGenerator {

    static final int PRODUCT_COUNT = 200;
    private static final String[] CATEGORIES = {"books", "garden", "kitchen", "toys", "sports", "music", "tools", "beauty"};
    private static final String[] ADJECTIVES = {"small", "classic", "bright", "sturdy", "quiet", "handy", "light", "deluxe"};
    private static final String[] NOUNS = {"lamp", "kettle", "ball", "shovel", "novel", "brush", "speaker", "drill",
        "mug", "puzzle", "rope", "cream"};

    private ShopGenerator() {
    }

    /** Generates the catalogue and {@code customerCount} customers (ids 1..customerCount) from {@code seed}. */
    public static Shop generate(long seed, int customerCount) {
        SplittableRandom root = new SplittableRandom(seed);
        List<Shop.Product> products = products(root.split());
        SplittableRandom customerRoot = root.split();
        Builder builder = new Builder();
        for (long customerId = 1; customerId <= customerCount; customerId++) {
            builder.customer(customerId, customerRoot.split());
        }
        return new Shop(seed, List.copyOf(products), builder.customers, builder.visits, builder.baskets,
                builder.orders, builder.returns);
    }

    private static List<Shop.Product> products(SplittableRandom random) {
        List<Shop.Product> products = new ArrayList<>(PRODUCT_COUNT);
        for (int productId = 1; productId <= PRODUCT_COUNT; productId++) {
            String name = ADJECTIVES[random.nextInt(ADJECTIVES.length)] + " " + NOUNS[random.nextInt(NOUNS.length)];
            String category = CATEGORIES[random.nextInt(CATEGORIES.length)];
            long priceCents = 199 + 100L * random.nextInt(120) + (random.nextBoolean() ? 0 : 50);
            products.add(new Shop.Product(productId, name, category, priceCents));
        }
        return products;
    }

    /** Appends one customer's history at a time; ids of baskets and orders run across customers. */
    private static final class Builder {
        final List<Shop.Customer> customers = new ArrayList<>();
        final List<Shop.Visit> visits = new ArrayList<>();
        final List<Shop.Basket> baskets = new ArrayList<>();
        final List<Shop.Order> orders = new ArrayList<>();
        final List<Shop.Return> returns = new ArrayList<>();

        void customer(long customerId, SplittableRandom random) {
            Traits traits = Traits.draw(random);
            int firstDay = Math.max(0, traits.signupDay);
            int lastDayExclusive = traits.quietFromDay;
            int visitCount = poisson(random, traits.visitsPer30Days * Math.max(0, lastDayExclusive - firstDay) / 30.0);
            int[] days = sortedDays(random, Math.min(visitCount, 250), firstDay, lastDayExclusive);
            int recentOrders = 0;
            for (int day : days) {
                recentOrders += visit(customerId, day, traits, random) && day >= Shop.QUARTER_FROM_DAY ? 1 : 0;
            }
            boolean boughtAgain = random.nextDouble() < traits.buyAgainProbability(recentOrders, days);
            customers.add(new Shop.Customer(customerId, traits.signupDay, traits.ageYears, traits.newsletter, boughtAgain));
        }

        /** Records a visit and what came of it; returns whether it ended in an order. */
        private boolean visit(long customerId, int day, Traits traits, SplittableRandom random) {
            int pages = 1 + poisson(random, 2 + 4 * traits.loyalty);
            visits.add(new Shop.Visit(customerId, day, pages, random.nextDouble() < traits.mobileShare));
            if (random.nextDouble() >= 0.2 + 0.3 * traits.loyalty) {
                return false;
            }
            int items = 1 + poisson(random, 1.5);
            long valueCents = items * Math.round(100 * 22 * StrictMath.exp(0.5 * gaussian(random)));
            boolean converted = random.nextDouble() < 0.25 + 0.55 * traits.loyalty;
            long basketId = baskets.size() + 1L;
            baskets.add(new Shop.Basket(basketId, customerId, day, items, valueCents, converted));
            if (converted) {
                order(customerId, day, items, valueCents, traits, random);
            }
            return converted;
        }

        private void order(long customerId, int day, int items, long valueCents, Traits traits, SplittableRandom random) {
            long orderId = orders.size() + 1L;
            orders.add(new Shop.Order(orderId, customerId, day, items, valueCents,
                    random.nextDouble() < traits.discountShare));
            int returnDay = day + 3 + random.nextInt(25);
            if (random.nextDouble() < 0.04 + 0.2 * (1 - traits.loyalty) && returnDay < Shop.AS_OF_DAY) {
                returns.add(new Shop.Return(orderId, customerId, returnDay, valueCents));
            }
        }
    }

    /** The hidden traits of one customer. */
    private record Traits(int signupDay, int ageYears, boolean newsletter, double visitsPer30Days, double loyalty,
                          double mobileShare, double discountShare, boolean wentQuiet, int quietFromDay, double noise) {

        static Traits draw(SplittableRandom random) {
            int signupDay = random.nextInt(-900, 330);
            int ageYears = 18 + random.nextInt(62);
            boolean newsletter = random.nextDouble() < 0.35;
            double visitsPer30Days = 1.2 * StrictMath.exp(0.7 * gaussian(random));
            double loyalty = sigmoid(gaussian(random) + (newsletter ? 0.4 : 0));
            double mobileShare = random.nextDouble();
            double discountShare = 0.1 + 0.5 * random.nextDouble();
            boolean wentQuiet = random.nextDouble() < 0.35;
            int firstDay = Math.max(0, signupDay);
            int quietFromDay = wentQuiet ? firstDay + random.nextInt(Shop.AS_OF_DAY - firstDay) : Shop.AS_OF_DAY;
            return new Traits(signupDay, ageYears, newsletter, visitsPer30Days, loyalty, mobileShare, discountShare,
                    wentQuiet, quietFromDay, 0.5 * gaussian(random));
        }

        double buyAgainProbability(int ordersLast90Days, int[] visitDays) {
            int lastVisitDay = visitDays.length == 0 ? -1 : visitDays[visitDays.length - 1];
            double quietDays = Shop.AS_OF_DAY - Math.max(lastVisitDay, Math.max(0, signupDay));
            double logit = -1.0 + 2.2 * loyalty + 0.7 * StrictMath.log1p(ordersLast90Days)
                    + 0.4 * StrictMath.log(visitsPer30Days) - 1.2 * (wentQuiet ? 1 : 0)
                    - 0.006 * quietDays + (newsletter ? 0.3 : 0) + noise;
            return sigmoid(logit);
        }
    }

    static double sigmoid(double x) {
        return 1 / (1 + StrictMath.exp(-x));
    }

    /**
     * A standard normal draw (Marsaglia's polar method with {@link StrictMath}), so that it is the same on every
     * JVM; {@code SplittableRandom.nextGaussian()} leaves its algorithm to the JDK.
     */
    static double gaussian(SplittableRandom random) {
        while (true) {
            double u = 2 * random.nextDouble() - 1;
            double v = 2 * random.nextDouble() - 1;
            double s = u * u + v * v;
            if (s > 0 && s < 1) {
                return u * StrictMath.sqrt(-2 * StrictMath.log(s) / s);
            }
        }
    }

    /** Poisson draw by inversion for small means, rounded normal for large ones. */
    static int poisson(SplittableRandom random, double mean) {
        if (mean <= 0) {
            return 0;
        }
        if (mean > 40) {
            return (int) Math.max(0, Math.round(mean + StrictMath.sqrt(mean) * gaussian(random)));
        }
        double limit = StrictMath.exp(-mean);
        double product = random.nextDouble();
        int count = 0;
        while (product > limit) {
            product *= random.nextDouble();
            count++;
        }
        return count;
    }

    private static int[] sortedDays(SplittableRandom random, int count, int fromDay, int toDayExclusive) {
        int[] days = new int[count];
        for (int i = 0; i < count; i++) {
            days[i] = fromDay + random.nextInt(toDayExclusive - fromDay);
        }
        Arrays.sort(days);
        return days;
    }
}
