package io.loadsmith.examples.scoring;

import java.util.List;

/**
 * The model's input: one row of {@link #NAMES} per customer, as of {@link Shop#AS_OF_DAY}.
 *
 * <p>The first {@link #TABLE_COLUMNS} features are precomputed into the {@code customer_features} table (a batch
 * feature table); the last three ({@code *_30d}) are computed per request from the raw {@code visits} and
 * {@code orders} tables, as a service would add fresh features to batch ones. {@link #compute(Shop)} computes
 * all of them from the generated shop for training and for the reference scores; the service reads them from
 * the database, and a test checks the two agree for every customer.
 */
public final class Features {

    public static final List<String> NAMES = List.of(
            "tenure_days", "age_years", "newsletter",
            "visits_total", "visits_90d", "days_since_last_visit", "pages_per_visit", "mobile_share",
            "baskets_total", "basket_abandon_rate",
            "orders_total", "orders_90d", "days_since_last_order", "mean_order_value", "spend_total", "discount_share",
            "returns_total", "return_rate",
            "visits_30d", "orders_30d", "spend_30d");

    /** Features stored in {@code customer_features}; the rest are computed per request. */
    public static final int TABLE_COLUMNS = 18;

    /** Days since the last visit or order of a customer who never had one: a year and a day. */
    static final int NEVER_DAYS = Shop.AS_OF_DAY + 1;

    private Features() {
    }

    /** Feature rows of every customer of {@code shop}, in customer order (row {@code i} is customer {@code i + 1}). */
    public static double[][] compute(Shop shop) {
        int count = shop.customers().size();
        Totals totals = new Totals(count);
        shop.visits().forEach(totals::add);
        shop.baskets().forEach(totals::add);
        shop.orders().forEach(totals::add);
        shop.returns().forEach(totals::add);
        double[][] rows = new double[count][];
        for (int i = 0; i < count; i++) {
            rows[i] = totals.row(shop.customers().get(i), i);
        }
        return rows;
    }

    /** Per-customer sums over the history, indexed by {@code customerId - 1}. */
    private static final class Totals {
        final int[] visits;
        final int[] visits90;
        final int[] visits30;
        final int[] lastVisitDay;
        final long[] pages;
        final int[] mobileVisits;
        final int[] baskets;
        final int[] abandoned;
        final int[] orders;
        final int[] orders90;
        final int[] orders30;
        final int[] lastOrderDay;
        final long[] spendCents;
        final long[] spend30Cents;
        final int[] discounted;
        final int[] returns;

        Totals(int count) {
            visits = new int[count];
            visits90 = new int[count];
            visits30 = new int[count];
            lastVisitDay = filled(count);
            pages = new long[count];
            mobileVisits = new int[count];
            baskets = new int[count];
            abandoned = new int[count];
            orders = new int[count];
            orders90 = new int[count];
            orders30 = new int[count];
            lastOrderDay = filled(count);
            spendCents = new long[count];
            spend30Cents = new long[count];
            discounted = new int[count];
            returns = new int[count];
        }

        private static int[] filled(int count) {
            int[] days = new int[count];
            java.util.Arrays.fill(days, -1);
            return days;
        }

        void add(Shop.Visit visit) {
            int i = (int) visit.customerId() - 1;
            visits[i]++;
            visits90[i] += visit.day() >= Shop.QUARTER_FROM_DAY ? 1 : 0;
            visits30[i] += visit.day() >= Shop.RECENT_FROM_DAY ? 1 : 0;
            lastVisitDay[i] = Math.max(lastVisitDay[i], visit.day());
            pages[i] += visit.pages();
            mobileVisits[i] += visit.mobile() ? 1 : 0;
        }

        void add(Shop.Basket basket) {
            int i = (int) basket.customerId() - 1;
            baskets[i]++;
            abandoned[i] += basket.converted() ? 0 : 1;
        }

        void add(Shop.Order order) {
            int i = (int) order.customerId() - 1;
            orders[i]++;
            orders90[i] += order.day() >= Shop.QUARTER_FROM_DAY ? 1 : 0;
            lastOrderDay[i] = Math.max(lastOrderDay[i], order.day());
            spendCents[i] += order.valueCents();
            discounted[i] += order.discounted() ? 1 : 0;
            if (order.day() >= Shop.RECENT_FROM_DAY) {
                orders30[i]++;
                spend30Cents[i] += order.valueCents();
            }
        }

        void add(Shop.Return shopReturn) {
            returns[(int) shopReturn.customerId() - 1]++;
        }

        double[] row(Shop.Customer customer, int i) {
            return new double[] {
                Shop.AS_OF_DAY - customer.signupDay(), customer.ageYears(), customer.newsletter() ? 1 : 0,
                visits[i], visits90[i], daysSince(lastVisitDay[i]), ratio(pages[i], visits[i]),
                ratio(mobileVisits[i], visits[i]),
                baskets[i], ratio(abandoned[i], baskets[i]),
                orders[i], orders90[i], daysSince(lastOrderDay[i]), ratio(spendCents[i], 100L * orders[i]),
                spendCents[i] / 100.0, ratio(discounted[i], orders[i]),
                returns[i], ratio(returns[i], orders[i]),
                visits30[i], orders30[i], spend30Cents[i] / 100.0,
            };
        }
    }

    static double daysSince(int day) {
        return day < 0 ? NEVER_DAYS : Shop.AS_OF_DAY - day;
    }

    static double ratio(long numerator, long denominator) {
        return denominator == 0 ? 0 : (double) numerator / denominator;
    }
}
