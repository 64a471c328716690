package io.tcpload.runner.html;

import java.util.ArrayList;
import java.util.List;

/**
 * Reduces a long per-second series to at most a given number of buckets for drawing, keeping each
 * bucket's minimum, maximum and mean, so that a one-second spike in a ten-hour run still shows as
 * the bucket's maximum. Pure and stateless.
 */
public final class Downsample {
    private Downsample() {}

    /**
     * One bucket of consecutive points.
     *
     * @param first index of its first point
     * @param last index of its last point (inclusive)
     * @param min the smallest value
     * @param max the largest value
     * @param mean the mean value
     */
    public record Bucket(int first, int last, double min, double max, double mean) {}

    /**
     * Splits {@code values} into at most {@code maxBuckets} buckets of consecutive points, as equal
     * in size as possible (sizes differ by at most one); a series no longer than {@code maxBuckets}
     * gives one bucket per point.
     *
     * @throws IllegalArgumentException when {@code maxBuckets} is less than 1
     */
    public static List<Bucket> of(double[] values, int maxBuckets) {
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("maxBuckets must be at least 1");
        }
        int n = values.length;
        int buckets = Math.min(n, maxBuckets);
        List<Bucket> result = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            // Integer boundaries b * n / buckets: no drift and no empty bucket.
            int first = (int) ((long) b * n / buckets);
            int end = (int) ((long) (b + 1) * n / buckets);
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            double sum = 0;
            for (int i = first; i < end; i++) {
                min = Math.min(min, values[i]);
                max = Math.max(max, values[i]);
                sum += values[i];
            }
            result.add(new Bucket(first, end - 1, min, max, sum / (end - first)));
        }
        return result;
    }
}
