package io.tcpload.runner.template;

import io.tcpload.runner.profile.ParameterSpec;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The values of one COUNTER for this runner, shared by every connection and event loop.
 *
 * <p>This runner owns a block of the counter's cycle: the values {@code lo, lo+step, ..., hi} and
 * the range {@code lo..limit} they lie in ({@code limit} is {@code end} for the last block, else
 * just below the next block's first value). The block's values repeat forever after a lead-in that
 * starts at {@code max(lo, step)} (wrktcp's first value, kept for wire compatibility) and goes up
 * by {@code step} while at most {@code limit}; when {@code max(lo, step)} is past {@code limit}
 * there is no lead-in. Blocks cover disjoint ranges, so runners never send the same value.
 *
 * <p>Each use takes the next position with one {@code getAndIncrement}, so concurrent users never
 * see the same position and never lose one, and nothing is locked or allocated.
 */
final class CounterSequence {
    private final long step;
    private final long lo;
    private final long cycleLength;
    private final long leadInFirst;
    private final long leadInLength;
    private final AtomicLong nextPosition = new AtomicLong();

    CounterSequence(ParameterSpec.Counter spec, RunnerSlice slice) {
        this.step = spec.step();
        long fullLength = cycleLength(spec.start(), spec.end(), step);
        long blockStart = slice.blockStart(fullLength);
        long blockEnd = slice.blockEnd(fullLength);
        // Exact even when the products wrap, because the true results lie in start..end.
        this.lo = spec.start() + blockStart * step;
        this.cycleLength = blockEnd - blockStart;
        long limit = blockEnd == fullLength ? spec.end() : spec.start() + blockEnd * step - 1;
        long first = Math.max(lo, step);
        if (first > limit) {
            this.leadInFirst = lo;
            this.leadInLength = 0;
        } else {
            this.leadInFirst = first;
            // first >= 1, so this cannot overflow.
            this.leadInLength = (limit - first) / step + 1;
        }
    }

    /** How many values {@code start, start+step, ...} are at most {@code end}. */
    static long cycleLength(long start, long end, long step) {
        // end - start read as unsigned is right even when the signed subtraction overflows.
        long steps = Long.divideUnsigned(end - start, step);
        // A cycle longer than Long.MAX_VALUE would never wrap in practice; clamp it.
        return steps < 0 || steps == Long.MAX_VALUE ? Long.MAX_VALUE : steps + 1;
    }

    /** The next value; safe to call from any thread. */
    long next() {
        return valueAt(nextPosition.getAndIncrement());
    }

    /** The value at a position of the sequence (lead-in first, then the cycle forever). */
    long valueAt(long position) {
        if (position >= 0 && position < leadInLength) {
            return leadInFirst + position * step;
        }
        return lo + Long.remainderUnsigned(position - leadInLength, cycleLength) * step;
    }
}
