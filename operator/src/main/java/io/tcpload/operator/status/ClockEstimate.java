package io.tcpload.operator.status;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A runner's clock offset from the operator's, from its last {@link #WINDOW} readings: the one with
 * the shortest round trip, as NTP's clock filter takes, since a long round trip (a busy node, a
 * connection being set up) is what makes a reading wrong. A few seconds of readings suffice: clocks
 * drift by parts per million, microseconds over the minute a test starts in. Pure and immutable.
 */
public final class ClockEstimate {
    /** Readings kept: the last ones, so that a clock stepped since is followed within as many. */
    static final int WINDOW = 8;

    public static final ClockEstimate NONE = new ClockEstimate(List.of());

    private final List<ClockSample> samples;

    private ClockEstimate(List<ClockSample> samples) {
        this.samples = List.copyOf(samples);
    }

    /** This estimate with {@code sample} added (the oldest left out past {@link #WINDOW}). */
    public ClockEstimate with(ClockSample sample) {
        if (!sample.known()) {
            return this;
        }
        Deque<ClockSample> kept = new ArrayDeque<>(samples);
        kept.addLast(sample);
        while (kept.size() > WINDOW) {
            kept.removeFirst();
        }
        return new ClockEstimate(List.copyOf(kept));
    }

    /** The best reading; {@link ClockSample#NONE} before any. */
    public ClockSample best() {
        ClockSample best = ClockSample.NONE;
        for (ClockSample sample : samples) {
            best = best.better(sample);
        }
        return best;
    }

    /** The estimated offset, in microseconds; 0 before any reading. */
    public long offsetUs() {
        ClockSample best = best();
        return best.known() ? best.offsetUs() : 0;
    }
}
