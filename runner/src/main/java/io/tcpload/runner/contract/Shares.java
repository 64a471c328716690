package io.tcpload.runner.contract;

/**
 * The one rule that splits a whole amount (a test's connections among its runners, a runner's
 * connections among its event loops) into nearly equal shares: each of {@code count} takes {@code
 * total / count}, and the first {@code total % count} one more, so that the shares add up to the
 * total exactly. Pure.
 */
public final class Shares {
    private Shares() {}

    /**
     * Share {@code index} (from 0) of {@code total} split {@code count} ways.
     *
     * @throws IllegalArgumentException when {@code index} is outside {@code 0..count-1}
     */
    public static long of(long total, int count, int index) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("share " + index + " of " + count);
        }
        return total / count + (index < total % count ? 1 : 0);
    }

    /** As {@link #of(long, int, int)}, for an amount that fits an int. */
    public static int of(int total, int count, int index) {
        return (int) of((long) total, count, index);
    }
}
