package io.tcpload.runner.rate;

/**
 * One slice of a {@link RateSchedule}'s send sequence, walked in order: the sends {@code first,
 * first + stride, first + 2 * stride, ...}. Made by {@link RateSchedule#fireTimes(int, int, int,
 * int)} for one event loop of one runner.
 *
 * <p>Each time is computed from the send's global index, so taking a send late never shifts later
 * ones. An engine can leave due sends in the iterator while every connection is busy: {@link #peek}
 * is the intended time of the oldest waiting send and {@link #dueAt} counts them, so a backlog
 * costs no memory however long the target stalls. No call allocates.
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

    /** The fire time of {@code nextIndex}, computed once when it became the next. */
    private long upcomingNs;

    FireTimes(RateSchedule schedule, long first, long stride) {
        this.schedule = schedule;
        this.first = first;
        this.stride = stride;
        this.total = schedule.totalSends();
        this.nextIndex = first;
        this.upcomingNs = timeAt(first);
    }

    /**
     * The fire time of this slice's next send, in ns from the run's start, without moving past it;
     * {@link RateSchedule#END} once the slice is exhausted.
     */
    public long peek() {
        return upcomingNs;
    }

    /**
     * The fire time of this slice's next send, in ns from the run's start, and moves past it;
     * {@link RateSchedule#END} once the slice is exhausted (and on every later call).
     */
    public long next() {
        long time = upcomingNs;
        if (time != RateSchedule.END) {
            nextIndex += stride;
            upcomingNs = timeAt(nextIndex);
        }
        return time;
    }

    /**
     * How many of this slice's sends are due at {@code elapsedNs} (fire time at or before it) and
     * not yet taken by {@link #next}: the backlog of an engine that takes a send only when a
     * connection is free to write it.
     */
    public long dueAt(long elapsedNs) {
        long due = elapsedNs == Long.MAX_VALUE ? size() : sendsBefore(elapsedNs + 1);
        return Math.max(0, due - returned());
    }

    private long timeAt(long index) {
        if (index >= total) {
            return RateSchedule.END;
        }
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
