package io.tcpload.runner.stats;

import org.HdrHistogram.Histogram;

/**
 * The one histogram shape used everywhere, so that histograms from any loop, second or runner pod
 * can be added exactly: 1 µs to one hour, three significant digits.
 */
public final class Histograms {
    /**
     * The largest value tracked; larger values are recorded as this (a run's timeout is far below).
     */
    public static final long HIGHEST_TRACKABLE = 3_600_000_000L;

    public static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {}

    public static Histogram create() {
        return new Histogram(1, HIGHEST_TRACKABLE, SIGNIFICANT_DIGITS);
    }

    /** Records {@code value}, clamped into the trackable range. */
    public static void record(Histogram histogram, long value) {
        histogram.recordValue(Math.max(0, Math.min(value, HIGHEST_TRACKABLE)));
    }
}
