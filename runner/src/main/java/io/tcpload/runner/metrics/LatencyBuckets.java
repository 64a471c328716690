package io.tcpload.runner.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The upper bounds of the Prometheus latency and connect histograms, in microseconds: the R20
 * preferred numbers (twenty per decade, about 12% apart, never more than 15%) from 50 µs to 10 s.
 * Twenty per decade rather than the usual handful because {@code histogram_quantile} interpolates
 * linearly inside a bucket: its error is bounded by the bucket's width, and a p99 that should agree
 * with the runner's own figure within 10% needs buckets narrower than that.
 */
public final class LatencyBuckets {
    private static final long[] R20 = {
        100, 112, 125, 140, 160, 180, 200, 224, 250, 280, 315, 355, 400, 450, 500, 560, 630, 710,
        800, 900
    };

    /** Upper bounds in µs, ascending, without +Inf. */
    private static final long[] BOUNDS_US = build(50, 10_000_000);

    private LatencyBuckets() {}

    private static long[] build(long lowestUs, long highestUs) {
        List<Long> bounds = new ArrayList<>();
        // R20 lists hundreds: at scale s the numbers run from s to 9 s.
        for (long scale = 1; scale <= highestUs; scale *= 10) {
            for (long base : R20) {
                long bound = base * scale / 100;
                if (bound >= lowestUs && bound <= highestUs) {
                    bounds.add(bound);
                }
            }
        }
        return bounds.stream().mapToLong(Long::longValue).toArray();
    }

    /** The finite upper bounds in microseconds, ascending (a copy). */
    public static long[] boundsUs() {
        return BOUNDS_US.clone();
    }

    /** The number of buckets, +Inf included. */
    public static int count() {
        return BOUNDS_US.length + 1;
    }

    /**
     * The bucket of a value: the first whose upper bound is at least {@code valueUs}, or the +Inf
     * bucket ({@code count() - 1}).
     */
    public static int indexOf(long valueUs) {
        int found = Arrays.binarySearch(BOUNDS_US, valueUs);
        return found >= 0 ? found : -found - 1;
    }

    /** The upper bounds in seconds, +Inf last, as the exposition writes them. */
    static double[] upperBoundsSeconds() {
        double[] seconds = new double[BOUNDS_US.length + 1];
        for (int i = 0; i < BOUNDS_US.length; i++) {
            seconds[i] = BOUNDS_US[i] / 1e6;
        }
        seconds[BOUNDS_US.length] = Double.POSITIVE_INFINITY;
        return seconds;
    }
}
