package io.tcpload.runner.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The figures of one statistics row, computed from a histogram the way wrk computes them from its
 * array of counts: mean, <em>sample</em> standard deviation (divided by n-1, 0 below two samples),
 * and the share of samples within one standard deviation of the mean.
 *
 * <p>Each histogram bucket counts as its median equivalent value, as {@link Histogram#getMean()}
 * does, so the mean, the deviation and the share agree with each other. An empty histogram gives
 * zeros everywhere, never NaN.
 *
 * @param count samples
 * @param mean mean value
 * @param stdev sample standard deviation
 * @param min smallest value (0 when empty)
 * @param max largest value (0 when empty)
 * @param withinStdevPercent percentage of samples in [mean - stdev, mean + stdev]
 */
record HistogramStats(
        long count, double mean, double stdev, long min, long max, double withinStdevPercent) {

    static final HistogramStats EMPTY = new HistogramStats(0, 0, 0, 0, 0, 0);

    static HistogramStats of(Histogram histogram) {
        long count = histogram.getTotalCount();
        if (count == 0) {
            return EMPTY;
        }
        double sum = 0;
        for (HistogramIterationValue bucket : histogram.recordedValues()) {
            sum += representative(histogram, bucket) * bucket.getCountAtValueIteratedTo();
        }
        double mean = sum / count;

        double stdev = 0;
        if (count >= 2) {
            double squares = 0;
            for (HistogramIterationValue bucket : histogram.recordedValues()) {
                double deviation = representative(histogram, bucket) - mean;
                squares += deviation * deviation * bucket.getCountAtValueIteratedTo();
            }
            stdev = Math.sqrt(squares / (count - 1));
        }

        double lower = mean - stdev;
        double upper = mean + stdev;
        long within = 0;
        for (HistogramIterationValue bucket : histogram.recordedValues()) {
            double value = representative(histogram, bucket);
            if (value >= lower && value <= upper) {
                within += bucket.getCountAtValueIteratedTo();
            }
        }
        return new HistogramStats(
                count,
                mean,
                stdev,
                histogram.getMinValue(),
                histogram.getMaxValue(),
                100.0 * within / count);
    }

    private static double representative(Histogram histogram, HistogramIterationValue bucket) {
        return histogram.medianEquivalentValue(bucket.getValueIteratedTo());
    }
}
