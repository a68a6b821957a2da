package io.numacube.bench.stats;

import java.util.Arrays;

/**
 * Summary of repeated measurements of one quantity (seconds, queries/s, GB/s...), in the unit of the samples.
 *
 * <p>Invariants: {@code count >= 1}; {@code min <= median <= max}; {@code stddev} is the sample standard deviation
 * (n - 1 denominator; 0 for a single sample); {@code cv = stddev / mean} (0 when the mean is 0). Immutable.
 *
 * @param count  number of samples
 * @param min    smallest sample
 * @param median middle sample, or the mean of the two middle samples for an even count
 * @param max    largest sample
 * @param mean   arithmetic mean
 * @param stddev sample standard deviation
 * @param cv     coefficient of variation, stddev / mean (a fraction: 0.05 is 5%)
 */
public record Summary(int count, double min, double median, double max, double mean, double stddev, double cv) {

    /**
     * Summarises {@code samples}.
     *
     * @throws IllegalArgumentException when there is no sample or a sample is not finite
     */
    public static Summary of(double... samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("a summary needs at least one sample: count=0");
        }
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        double sum = 0;
        for (double s : sorted) {
            if (!Double.isFinite(s)) {
                throw new IllegalArgumentException(
                        "samples must be finite: sample=" + s + " samples=" + Arrays.toString(samples));
            }
            sum += s;
        }
        int n = sorted.length;
        double mean = sum / n;
        double squares = 0;
        for (double s : sorted) {
            squares += (s - mean) * (s - mean);
        }
        double stddev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        double cv = mean == 0 ? 0 : stddev / Math.abs(mean);
        return new Summary(n, sorted[0], median, sorted[n - 1], mean, stddev, cv);
    }
}
