package io.tcpload.runner.template;

import java.math.BigInteger;

/**
 * Which part of a distributed run this runner is: runner {@code index} (from 0) of {@code count}.
 * Shared sequences (COUNTER values, FILE lines) are split into {@code count} contiguous, nearly
 * equal blocks and runner {@code index} uses block {@code index} only, so no two runners send the
 * same value.
 */
public record RunnerSlice(int index, int count) {

    /** A run with one runner, which uses every value. */
    public static final RunnerSlice SINGLE = new RunnerSlice(0, 1);

    public RunnerSlice {
        if (count < 1) {
            throw new IllegalArgumentException("runner count " + count + " is not positive");
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException(
                    "runner index " + index + " is outside 0.." + (count - 1));
        }
    }

    /**
     * The first position of this runner's block of a sequence of {@code size} positions: {@code
     * floor(index * size / count)}. When the sequence has fewer positions than there are runners,
     * every runner uses all of it and this is 0.
     */
    public long blockStart(long size) {
        return size < count ? 0 : scaled(index, size);
    }

    /** One past the last position of this runner's block (see {@link #blockStart(long)}). */
    public long blockEnd(long size) {
        return size < count ? size : scaled(index + 1, size);
    }

    private long scaled(int numerator, long size) {
        // index * size overflows a long for sequences near Long.MAX_VALUE; this runs once per run.
        return BigInteger.valueOf(numerator)
                .multiply(BigInteger.valueOf(size))
                .divide(BigInteger.valueOf(count))
                .longValueExact();
    }
}
