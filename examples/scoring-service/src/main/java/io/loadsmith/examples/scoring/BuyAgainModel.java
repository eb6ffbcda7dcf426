package io.loadsmith.examples.scoring;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * A gradient-boosted tree model (XGBoost) of the probability that a customer buys again.
 *
 * <p>Scores are made the same on every run: training uses a fixed thread count and seed, the model is kept in
 * XGBoost's UBJSON format (float32 leaves, exact), XGBoost only sums leaf values into the margin, and the
 * logistic function is applied here with {@link StrictMath}. {@link #probability(float[])} is thread-safe
 * (XGBoost's in-place prediction is) and uses one thread per call.
 */
public final class BuyAgainModel {

    /** Trees in the ensemble: sized so that a prediction costs a realistic few hundred microseconds. */
    static final int TREES = 600;
    static final int MAX_DEPTH = 6;
    /**
     * Threads XGBoost trains with: one, so that the model does not depend on the machine's core count, and
     * because OpenMP threads that spin at barriers slow training tenfold on a busy machine.
     */
    static final int TRAINING_THREADS = 1;
    /** Every {@code HOLDOUT_EVERY}-th customer is held out of training to measure the model. */
    static final int HOLDOUT_EVERY = 5;

    private static final int[] ALL_TREES = {0, 0};

    private final Booster booster;
    private final int featureCount;

    private BuyAgainModel(Booster booster, int featureCount) {
        this.booster = booster;
        this.featureCount = featureCount;
    }

    /** A trained model: its bytes in UBJSON format and its area under the ROC curve on held-out customers. */
    public record Trained(byte[] modelBytes, double holdoutAuc) {
    }

    /** Trains on every customer but each {@value #HOLDOUT_EVERY}-th, which measure it. */
    public static Trained train(double[][] rows, boolean[] labels, long seed) {
        int[] trainIndexes = indexes(rows.length, false);
        int[] holdoutIndexes = indexes(rows.length, true);
        try {
            DMatrix training = matrix(rows, labels, trainIndexes);
            Booster booster = XGBoost.train(training, parameters(seed), TREES, Map.of(), null, null);
            byte[] modelBytes = booster.toByteArray("ubj");
            training.dispose();
            booster.dispose();
            BuyAgainModel model = load(modelBytes);
            float[][] holdout = new float[holdoutIndexes.length][];
            boolean[] holdoutLabels = new boolean[holdoutIndexes.length];
            for (int i = 0; i < holdoutIndexes.length; i++) {
                holdout[i] = toFloats(rows[holdoutIndexes[i]]);
                holdoutLabels[i] = labels[holdoutIndexes[i]];
            }
            return new Trained(modelBytes, auc(model.probabilities(holdout), holdoutLabels));
        } catch (XGBoostError e) {
            throw new IllegalStateException("XGBoost could not train the model", e);
        }
    }

    /** Loads a model written by {@link #train}. */
    public static BuyAgainModel load(byte[] modelBytes) {
        try {
            Booster booster = XGBoost.loadModel(modelBytes);
            booster.setParam("nthread", 1);
            return new BuyAgainModel(booster, (int) booster.getNumFeature());
        } catch (XGBoostError | java.io.IOException e) {
            throw new IllegalStateException("not an XGBoost model", e);
        }
    }

    /** The probability that this customer buys again; {@code features} in the order of {@link Features#NAMES}. */
    public double probability(float[] features) {
        if (features.length != featureCount) {
            throw new IllegalArgumentException("expected " + featureCount + " features, got " + features.length);
        }
        return ShopGenerator.sigmoid(margins(features, 1)[0]);
    }

    /** {@link #probability} of many rows at once (the same values, bit for bit). */
    public double[] probabilities(float[][] rows) {
        float[] flat = new float[rows.length * featureCount];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(rows[i], 0, flat, i * featureCount, featureCount);
        }
        float[] margins = margins(flat, rows.length);
        double[] probabilities = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            probabilities[i] = ShopGenerator.sigmoid(margins[i]);
        }
        return probabilities;
    }

    /** A probability as the service answers it: exactly six decimals, half-even, from its exact binary value. */
    public static BigDecimal rounded(double probability) {
        return new BigDecimal(probability).setScale(6, RoundingMode.HALF_EVEN);
    }

    public static float[] toFloats(double[] row) {
        float[] floats = new float[row.length];
        for (int i = 0; i < row.length; i++) {
            floats[i] = (float) row[i];
        }
        return floats;
    }

    private float[] margins(float[] flatRows, int rowCount) {
        try {
            float[][] margins = booster.inplace_predict(flatRows, rowCount, featureCount, Float.NaN, ALL_TREES,
                    Booster.PredictionType.kMargin, null);
            float[] column = new float[rowCount];
            for (int i = 0; i < rowCount; i++) {
                column[i] = margins[i][0];
            }
            return column;
        } catch (XGBoostError e) {
            throw new IllegalStateException("XGBoost could not predict", e);
        }
    }

    private static Map<String, Object> parameters(long seed) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("objective", "binary:logistic");
        parameters.put("tree_method", "hist");
        parameters.put("max_depth", MAX_DEPTH);
        parameters.put("eta", 0.03);
        parameters.put("subsample", 0.5);
        parameters.put("colsample_bytree", 0.8);
        parameters.put("min_child_weight", 5);
        parameters.put("max_bin", 64);
        parameters.put("nthread", TRAINING_THREADS);
        parameters.put("seed", Long.hashCode(seed));
        parameters.put("verbosity", 0);
        return parameters;
    }

    private static DMatrix matrix(double[][] rows, boolean[] labels, int[] indexes) throws XGBoostError {
        int columns = rows[0].length;
        float[] flat = new float[indexes.length * columns];
        float[] labelValues = new float[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            float[] row = toFloats(rows[indexes[i]]);
            System.arraycopy(row, 0, flat, i * columns, columns);
            labelValues[i] = labels[indexes[i]] ? 1 : 0;
        }
        DMatrix matrix = new DMatrix(flat, indexes.length, columns, Float.NaN);
        matrix.setLabel(labelValues);
        return matrix;
    }

    private static int[] indexes(int count, boolean holdout) {
        return java.util.stream.IntStream.range(0, count)
                .filter(i -> ((i + 1) % HOLDOUT_EVERY == 0) == holdout)
                .toArray();
    }

    /** Area under the ROC curve: the chance that a random buyer scores above a random non-buyer (ties count half). */
    static double auc(double[] scores, boolean[] labels) {
        Integer[] order = new Integer[scores.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (a, b) -> Double.compare(scores[a], scores[b]));
        double positiveRankSum = 0;
        long positives = 0;
        int i = 0;
        while (i < order.length) {
            int j = i;
            while (j + 1 < order.length && scores[order[j + 1]] == scores[order[i]]) {
                j++;
            }
            double averageRank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                if (labels[order[k]]) {
                    positiveRankSum += averageRank;
                    positives++;
                }
            }
            i = j + 1;
        }
        long negatives = scores.length - positives;
        return (positiveRankSum - positives * (positives + 1) / 2.0) / ((double) positives * negatives);
    }
}
