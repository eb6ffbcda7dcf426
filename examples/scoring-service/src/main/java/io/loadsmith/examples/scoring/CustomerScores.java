package io.loadsmith.examples.scoring;

import java.math.BigDecimal;

/**
 * The model's answers as every API gives them: exactly six decimals ({@link BuyAgainModel#rounded}). HTTP's
 * {@code /score} and gRPC's {@code scoring.Scorer/Score} both score through here. Thread-safe.
 */
final class CustomerScores {

    private final ShopDatabase database;
    private final BuyAgainModel model;

    CustomerScores(ShopDatabase database, BuyAgainModel model) {
        this.database = database;
        this.model = model;
    }

    /** The score of a stored customer; {@link ApiException} 404 for an unknown id. */
    BigDecimal ofCustomer(long customerId) {
        double[] features = database.features(customerId)
                .orElseThrow(() -> ApiException.notFound("unknown customer " + customerId));
        return of(features);
    }

    /** The score of features in the order of {@link Features#NAMES}. */
    BigDecimal of(double[] features) {
        return BuyAgainModel.rounded(model.probability(BuyAgainModel.toFloats(features)));
    }
}
