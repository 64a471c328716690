package io.tcpload.runner.testing;

/**
 * A target that stalls: during {@code [k * periodMs, k * periodMs + stallMs)} after its start it
 * holds every response until the stall ends, and otherwise answers at once. This class is the pure
 * part, shared by {@link StallTarget} and by simulations: when a response is let go, and the
 * analytic latency an open-loop client at a constant rate must see (its base latency ignored).
 *
 * <p>A request fired at a uniformly random moment waits {@code S - x} when it lands {@code x} into
 * a stall, so a share {@code S / P} of requests wait uniformly between 0 and {@code S} and the rest
 * not at all: {@code P(wait > w) = (S - w) / P}. Immutable.
 *
 * @param periodMs P, the time from one stall's start to the next's
 * @param stallMs S, each stall's length, below {@code periodMs}
 */
public record StallPattern(long periodMs, long stallMs) {

    public StallPattern {
        if (periodMs < 1 || stallMs < 0 || stallMs >= periodMs) {
            throw new IllegalArgumentException(
                    "need 0 <= stall < period, not stall " + stallMs + " ms, period " + periodMs);
        }
    }

    /** When a response ready at {@code elapsedNs} after the start is let go. */
    public long releaseAtNs(long elapsedNs) {
        long periodNs = periodMs * 1_000_000L;
        long stallStartNs = Math.floorDiv(elapsedNs, periodNs) * periodNs;
        long stallEndNs = stallStartNs + stallMs * 1_000_000L;
        return elapsedNs < stallEndNs ? stallEndNs : elapsedNs;
    }

    /**
     * The {@code q}-quantile of the wait, in ms: {@code S - (1 - q) * P} for {@code q > 1 - S/P},
     * else 0.
     */
    public double waitQuantileMs(double q) {
        if (q < 0 || q > 1) {
            throw new IllegalArgumentException("quantile " + q + " is outside 0..1");
        }
        double wait = stallMs - (1 - q) * periodMs;
        return Math.max(0, wait);
    }

    /** The mean wait, in ms: {@code S^2 / (2P)}. */
    public double meanWaitMs() {
        return (double) stallMs * stallMs / (2.0 * periodMs);
    }
}
