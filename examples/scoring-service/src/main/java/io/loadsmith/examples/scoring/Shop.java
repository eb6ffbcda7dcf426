package io.loadsmith.examples.scoring;

import java.util.List;

/**
 * A synthetic online shop: its catalogue and every customer's history up to the day the model is scored
 * ({@link #AS_OF_DAY}), plus whether each customer bought again in the weeks after it (the label).
 *
 * <p>Days are whole days counted from the start of the observed year: history covers days {@code 0..364}, and a
 * customer may have signed up before it (a negative {@code signupDay}). Money is in euro cents.
 */
public record Shop(long seed, List<Product> products, List<Customer> customers, List<Visit> visits,
                   List<Basket> baskets, List<Order> orders, List<Return> returns) {

    /** The day features are computed at: history is days {@code 0..AS_OF_DAY-1}. */
    public static final int AS_OF_DAY = 365;

    /** Features named {@code *_30d} count the last 30 days before {@link #AS_OF_DAY}: days 335..364. */
    public static final int RECENT_FROM_DAY = AS_OF_DAY - 30;

    /** Features named {@code *_90d} count days 275..364. */
    public static final int QUARTER_FROM_DAY = AS_OF_DAY - 90;

    public record Product(int productId, String name, String category, long priceCents) { }

    public record Customer(long customerId, int signupDay, int ageYears, boolean newsletter, boolean boughtAgain) { }

    public record Visit(long customerId, int day, int pages, boolean mobile) { }

    public record Basket(long basketId, long customerId, int day, int items, long valueCents, boolean converted) { }

    public record Order(long orderId, long customerId, int day, int items, long valueCents, boolean discounted) { }

    public record Return(long orderId, long customerId, int day, long valueCents) { }
}
