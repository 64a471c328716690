package io.tcpload.operator.runner;

/**
 * Splits a whole test's amount (connections, requests per second) across runners: each takes {@code
 * total / count}, and the first {@code total % count} runners one more, so the shares add up to the
 * total exactly. Pure.
 */
public final class Shares {
    private Shares() {}

    public static long of(long total, int count, int index) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("runner " + index + " of " + count);
        }
        return total / count + (index < total % count ? 1 : 0);
    }
}
