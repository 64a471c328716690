package io.tcpload.runner.stats;

/**
 * One second of a run, for the progress line, {@code --trace} and the JSON series. Immutable.
 *
 * <p>Its counts are what happened in it; a rate is those counts over its real length ({@link
 * #perSecond}), since not every row lasts a second: the last one of a run that ends between whole
 * seconds (or is stopped) is shorter, and a row that {@link SecondRows} folds holds several.
 *
 * @param second 1-based second since the start
 * @param counts what happened in that second alone
 * @param latencyP50Us median latency of the responses completed in that second (0 if none)
 * @param latencyP90Us 90th percentile of that second (0 if none)
 * @param latencyP99Us 99th percentile of that second (0 if none)
 * @param latencyMaxUs maximum of that second (0 if none)
 * @param durationUs how long it lasted, in microseconds: {@link #SECOND_US} for a whole second
 */
public record SecondSample(
        int second,
        Counts counts,
        long latencyP50Us,
        long latencyP90Us,
        long latencyP99Us,
        long latencyMaxUs,
        long durationUs) {

    /** The length of a whole second, in microseconds. */
    public static final long SECOND_US = 1_000_000;

    public SecondSample {
        if (durationUs < 1) {
            throw new IllegalArgumentException(
                    "a second's duration must be positive, got " + durationUs + " us");
        }
    }

    /** A whole second. */
    public SecondSample(
            int second,
            Counts counts,
            long latencyP50Us,
            long latencyP90Us,
            long latencyP99Us,
            long latencyMaxUs) {
        this(second, counts, latencyP50Us, latencyP90Us, latencyP99Us, latencyMaxUs, SECOND_US);
    }

    /** {@code count} of this second's events as a rate per second over its real length. */
    public double perSecond(long count) {
        return count * (double) SECOND_US / durationUs;
    }
}
