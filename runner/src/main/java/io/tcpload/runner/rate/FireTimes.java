package io.tcpload.runner.rate;

/**
 * One slice of a {@link RateSchedule}'s send sequence, walked in order: the sends {@code first,
 * first + stride, first + 2 * stride, ...}. Made by {@link RateSchedule#fireTimes(int, int, int,
 * int)} for one event loop of one runner.
 *
 * <p>Each {@link #next} computes its time from the send's global index, so skipping, pausing or
 * calling late never shifts later times. No call allocates.
 *
 * <p>Threading: not thread-safe; one owner (the event loop it feeds) calls it.
 */
public final class FireTimes {
    private final RateSchedule schedule;
    private final long first;
    private final long stride;
    private final long total;

    private long nextIndex;
    private int segment;

    FireTimes(RateSchedule schedule, long first, long stride) {
        this.schedule = schedule;
        this.first = first;
        this.stride = stride;
        this.total = schedule.totalSends();
        this.nextIndex = first;
    }

    /**
     * The fire time of this slice's next send, in ns from the run's start, and moves past it;
     * {@link RateSchedule#END} once the slice is exhausted (and on every later call).
     */
    public long next() {
        if (nextIndex >= total) {
            return RateSchedule.END;
        }
        long index = nextIndex;
        nextIndex += stride;
        segment = schedule.segmentFrom(index, segment);
        return schedule.timeOf(index, segment);
    }

    /**
     * The global index (in the whole run's sequence) of the send the next {@link #next} call
     * returns; at least {@link RateSchedule#totalSends()} once exhausted.
     */
    public long nextIndex() {
        return nextIndex;
    }

    /** How many sends {@link #next} has returned so far (not counting {@link RateSchedule#END}). */
    public long returned() {
        // nextIndex only advances past sends that were returned.
        return (nextIndex - first) / stride;
    }

    /**
     * How many of this slice's sends fire before {@code elapsedNs}: what a loop should have sent by
     * then, to compare with what it did send.
     */
    public long sendsBefore(long elapsedNs) {
        return countBelow(schedule.sendsBefore(elapsedNs));
    }

    /** The number of sends in this slice. */
    public long size() {
        return countBelow(total);
    }

    /** Sends of this slice whose global index is below {@code limit}. */
    private long countBelow(long limit) {
        return limit <= first ? 0 : (limit - first + stride - 1) / stride;
    }
}
