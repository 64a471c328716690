package io.tcpload.operator.status;

/**
 * One reading of a runner's clock against the operator's, from one {@code /stats} round trip, as
 * NTP reads a server: the runner's clock when it answered, taken for the middle of the round trip.
 * The true offset lies within half the round trip of the estimate, whatever the network does, so
 * the sample with the shortest round trip is the best. Pure and immutable.
 *
 * @param offsetUs the runner's clock minus the operator's, in microseconds
 * @param roundTripUs the round trip on the operator's clock, in microseconds; the error bound is
 *     half of it
 */
public record ClockSample(long offsetUs, long roundTripUs) {
    /** No reading (a runner that did not answer, or did not say its clock). */
    public static final ClockSample NONE = new ClockSample(0, Long.MAX_VALUE);

    /**
     * The sample of a request sent at {@code sentUs} and answered at {@code receivedUs} on the
     * operator's clock, which the runner answered at {@code runnerUs} on its own; {@link #NONE}
     * when the runner gave no clock (0) or the operator's clock went back meanwhile.
     */
    public static ClockSample of(long sentUs, long runnerUs, long receivedUs) {
        if (runnerUs <= 0 || receivedUs < sentUs) {
            return NONE;
        }
        long middleUs = sentUs + (receivedUs - sentUs) / 2;
        return new ClockSample(runnerUs - middleUs, receivedUs - sentUs);
    }

    /** Whether this is a reading at all. */
    public boolean known() {
        return roundTripUs != Long.MAX_VALUE;
    }

    /** The better of the two: the one with the shorter round trip. */
    public ClockSample better(ClockSample other) {
        return other.roundTripUs < roundTripUs ? other : this;
    }
}
