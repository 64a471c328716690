package io.tcpload.runner.rate;

import java.util.List;

/**
 * The requested send rate of a whole run as a function of time, and the exact sequence of send
 * times it implies. Pure and clock-free: times are nanoseconds elapsed since the run's start.
 *
 * <p>The schedule is a chain of segments, one per {@link Stage}; in each the rate moves linearly
 * from the previous target to the stage's own (a constant {@code -R} run is one flat segment). With
 * {@code I(t)} the integral of the rate from 0 to {@code t} (the expected number of sends by then),
 * send {@code k} (from 0) fires at the first instant after which {@code I} exceeds {@code k},
 * rounded to the nanosecond. Each time is computed from {@code k} alone, never by adding periods,
 * so the sequence has no drift: at a constant rate {@code R} send {@code k} fires at {@code round(k
 * * 1e9 / R)}. On a ramp the quadratic {@code I(t) = k} is solved in closed form. A pause (a stage
 * from 0 to 0) holds no send; the next send fires when the rate becomes positive again.
 *
 * <p>The number of sends before {@code t} is {@code ceil(I(t))}: the first send fires at time 0.
 * {@link #expectedSends} gives {@code I(t)} itself, {@link #sendsBefore} the exact count of the
 * sequence, so that an engine or a test can compare what was achieved with what was asked.
 *
 * <p>Immutable and thread-safe; {@link #fireTimes} hands out single-owner iterators over one slice
 * of the sequence.
 */
public final class RateSchedule {
    /** The highest rate accepted: one send per nanosecond. */
    public static final double MAX_RATE = 1e9;

    /** Returned by {@link #fireTimeNs} and {@link FireTimes#next} past the last send. */
    public static final long END = Long.MAX_VALUE;

    /**
     * The most sends a schedule may hold: up to 2^53 every send index and every expected count is
     * an exact double, so the arithmetic below never loses whole sends.
     */
    static final double MAX_SENDS = 0x1p53;

    private static final double NANOS_PER_SECOND = 1e9;

    private final double startRate;
    private final List<Stage> stages;
    private final long totalDurationNs;

    // One entry per segment (stage); sendsAtStart holds I(t) at each segment's start.
    private final long[] startNs;
    private final long[] durationNs;
    private final double[] fromRate;
    private final double[] toRate;
    private final double[] sendsAtStart;

    private final double expectedTotal;
    private final long totalSends;

    private RateSchedule(double startRate, List<Stage> stages) {
        if (!(startRate >= 0) || startRate > MAX_RATE) {
            throw new IllegalArgumentException(
                    "rate "
                            + startRate
                            + " must be between 0 and "
                            + (long) MAX_RATE
                            + " per second");
        }
        if (stages.isEmpty()) {
            throw new IllegalArgumentException("a rate schedule needs at least one stage");
        }
        this.startRate = startRate;
        this.stages = List.copyOf(stages);
        int n = this.stages.size();
        startNs = new long[n];
        durationNs = new long[n];
        fromRate = new double[n];
        toRate = new double[n];
        sendsAtStart = new double[n];
        long atNs = 0;
        double sends = 0;
        double rate = startRate;
        for (int i = 0; i < n; i++) {
            Stage stage = this.stages.get(i);
            long stageNs;
            try {
                stageNs = Math.multiplyExact(stage.durationMs(), 1_000_000L);
                startNs[i] = atNs;
                atNs = Math.addExact(atNs, stageNs);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("the stages last too long in all", e);
            }
            durationNs[i] = stageNs;
            fromRate[i] = rate;
            toRate[i] = stage.targetRate();
            sendsAtStart[i] = sends;
            // (r0 + r1) * ms is exact for whole rates, so the only rounding is the final division.
            sends += (rate + stage.targetRate()) * stage.durationMs() / 2000.0;
            if (sends > MAX_SENDS) {
                throw new IllegalArgumentException(
                        "the schedule asks for more than 2^53 sends; lower the rate or duration");
            }
            rate = stage.targetRate();
        }
        totalDurationNs = atNs;
        expectedTotal = sends;
        long estimate = (long) Math.ceil(sends);
        totalSends = countBefore(totalDurationNs, estimate, estimate + 2);
    }

    /**
     * A constant rate for a fixed time ({@code -R} with {@code -d}).
     *
     * @param ratePerSecond sends per second across the whole run, positive
     * @param durationMs the run's length, positive
     */
    public static RateSchedule constant(double ratePerSecond, long durationMs) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, not " + ratePerSecond);
        }
        return new RateSchedule(ratePerSecond, List.of(new Stage(durationMs, ratePerSecond)));
    }

    /**
     * A chain of linear ramps ({@code --stages}); the run lasts the sum of the stages.
     *
     * @param startRate the rate at time 0, from which the first stage ramps: 0, or {@code -R} when
     *     it was given too
     * @param stages at least one
     */
    public static RateSchedule stages(double startRate, List<Stage> stages) {
        return new RateSchedule(startRate, stages);
    }

    /** The rate at time 0. */
    public double startRate() {
        return startRate;
    }

    /** The stages, in order (a constant schedule has one). */
    public List<Stage> stages() {
        return stages;
    }

    public long totalDurationMs() {
        return totalDurationNs / 1_000_000L;
    }

    public long totalDurationNs() {
        return totalDurationNs;
    }

    /** The offset of stage {@code index} (from 0) from the run's start. */
    public long stageStartNs(int index) {
        return startNs[index];
    }

    /**
     * The stage (from 0) that holds {@code elapsedNs}; -1 before the start, the number of stages
     * from the end on.
     */
    public int stageAt(long elapsedNs) {
        if (elapsedNs < 0) {
            return -1;
        }
        if (elapsedNs >= totalDurationNs) {
            return stages.size();
        }
        int low = 0;
        int high = startNs.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (startNs[mid] <= elapsedNs) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /** The requested rate, in sends per second, at {@code elapsedNs}; 0 outside the run. */
    public double rateAt(long elapsedNs) {
        int s = stageAt(elapsedNs);
        if (s < 0 || s >= stages.size()) {
            return 0;
        }
        double share = (double) (elapsedNs - startNs[s]) / durationNs[s];
        return fromRate[s] + (toRate[s] - fromRate[s]) * share;
    }

    /**
     * The integral of the rate over {@code [0, elapsedNs)}: the number of sends asked for by then,
     * as a real number (clamped to the run).
     */
    public double expectedSends(long elapsedNs) {
        if (elapsedNs <= 0) {
            return 0;
        }
        if (elapsedNs >= totalDurationNs) {
            return expectedTotal;
        }
        int s = stageAt(elapsedNs);
        double seconds = (elapsedNs - startNs[s]) / NANOS_PER_SECOND;
        double r0 = fromRate[s];
        double slope = (toRate[s] - r0) / (durationNs[s] / NANOS_PER_SECOND);
        return sendsAtStart[s] + r0 * seconds + slope * seconds * seconds / 2;
    }

    /** The integral of the rate over the whole run. */
    public double expectedTotal() {
        return expectedTotal;
    }

    /** The number of sends in the whole sequence. */
    public long totalSends() {
        return totalSends;
    }

    /**
     * The exact number of sends of the sequence that fire before {@code elapsedNs}: the number of
     * {@code k} with {@code fireTimeNs(k) < elapsedNs}. Equal to {@code ceil(expectedSends)} up to
     * the rounding of times to the nanosecond.
     */
    public long sendsBefore(long elapsedNs) {
        if (elapsedNs <= 0) {
            return 0;
        }
        if (elapsedNs >= totalDurationNs) {
            return totalSends;
        }
        return countBefore(elapsedNs, (long) Math.ceil(expectedSends(elapsedNs)), totalSends);
    }

    /**
     * When send {@code index} (from 0) fires, in ns from the start; {@link #END} when the schedule
     * holds fewer sends.
     */
    public long fireTimeNs(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("send index " + index + " is negative");
        }
        if (index >= totalSends) {
            return END;
        }
        return timeOf(index, segmentOf(index));
    }

    /** An iterator over the whole sequence, for one event loop alone. */
    public FireTimes fireTimes() {
        return new FireTimes(this, 0, 1);
    }

    /**
     * The sends of event loop {@code loopIndex} of {@code loopCount}: every send {@code k} with
     * {@code k % loopCount == loopIndex}, so each loop's sends are evenly spread and the loops
     * together send the whole sequence.
     */
    public FireTimes fireTimes(int loopIndex, int loopCount) {
        return fireTimes(0, 1, loopIndex, loopCount);
    }

    /**
     * The sends of event loop {@code loopIndex} of {@code loopCount} in runner {@code runnerIndex}
     * of {@code runnerCount}: runner {@code r} takes the sends {@code k} with {@code k %
     * runnerCount == r}, and within it loop {@code i} those with {@code (k / runnerCount) %
     * loopCount == i}. All loops of all runners together send the whole sequence, each send once.
     */
    public FireTimes fireTimes(int runnerIndex, int runnerCount, int loopIndex, int loopCount) {
        checkSlice("runner", runnerIndex, runnerCount);
        checkSlice("loop", loopIndex, loopCount);
        long stride = (long) runnerCount * loopCount;
        long first = (long) loopIndex * runnerCount + runnerIndex;
        return new FireTimes(this, first, stride);
    }

    private static void checkSlice(String what, int index, int count) {
        if (count < 1) {
            throw new IllegalArgumentException(what + " count " + count + " is not positive");
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException(
                    what + " index " + index + " is outside 0.." + (count - 1));
        }
    }

    /**
     * The number of sends before {@code elapsedNs}, at most {@code limit}, from an estimate that is
     * right or off by one either way because times are rounded to nanoseconds.
     */
    private long countBefore(long elapsedNs, long estimate, long limit) {
        long n = Math.max(0, Math.min(estimate, limit));
        while (n > 0 && timeOf(n - 1, segmentOf(n - 1)) >= elapsedNs) {
            n--;
        }
        while (n < limit && timeOf(n, segmentOf(n)) < elapsedNs) {
            n++;
        }
        return n;
    }

    /**
     * The segment that holds send {@code index}: the last one whose starting count is at most the
     * index. Pauses start and end at the same count, so a send at their boundary lands in the
     * segment after them.
     */
    int segmentOf(long index) {
        int low = 0;
        int high = sendsAtStart.length - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (sendsAtStart[mid] <= index) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * {@link #segmentOf} for callers that walk the sequence forwards: searches on from {@code
     * hint}, the segment of an earlier send, so that walking costs O(1) per send.
     */
    int segmentFrom(long index, int hint) {
        int s = hint;
        int last = sendsAtStart.length - 1;
        while (s < last && sendsAtStart[s + 1] <= index) {
            s++;
        }
        return s;
    }

    /** The fire time of send {@code index}, which lies in {@code segment}. */
    long timeOf(long index, int segment) {
        double r0 = fromRate[segment];
        double r1 = toRate[segment];
        if (r0 == 0 && r1 == 0) {
            // Only a send past the last one lands in a pause (a trailing one): it never fires.
            return startNs[segment] + durationNs[segment];
        }
        double j = index - sendsAtStart[segment];
        if (j <= 0) {
            return startNs[segment];
        }
        double offsetNs;
        if (r0 == r1) {
            // One division of exact integers: round(k * 1e9 / R) from the segment's start.
            offsetNs = j * NANOS_PER_SECOND / r0;
        } else {
            // Solve r0*t + a*t^2/2 = j for t; 2j / (r0 + sqrt(r0^2 + 2aj)) is the root without the
            // cancellation of (-r0 + sqrt(...)) / a, and it holds for a of either sign and r0 = 0.
            double seconds = durationNs[segment] / NANOS_PER_SECOND;
            double slope = (r1 - r0) / seconds;
            double discriminant = Math.max(0, r0 * r0 + 2 * slope * j);
            double denominator = r0 + Math.sqrt(discriminant);
            offsetNs = denominator > 0 ? 2 * j * NANOS_PER_SECOND / denominator : 0;
        }
        // Float rounding at a segment's far end must not push a send into the next segment.
        long offset = Math.min(durationNs[segment], Math.round(offsetNs));
        return startNs[segment] + offset;
    }
}
