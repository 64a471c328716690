package io.tcpload.runner.template;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.ParameterSpec;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lines of one FILE parameter's data file for this runner, shared by every connection and event
 * loop: each use takes the next line of this runner's block, back to its first line after its last.
 * Lock-free and allocation-free after construction; the content is kept as it is, with line
 * offsets, so many short lines cost 8 bytes each on top of their text.
 */
final class LineCycle {

    private final ImmutableBytes content;
    private final int[] starts;
    private final int[] ends;
    private final int first;
    private final int count;
    private final int maxLineLength;
    private final AtomicLong nextPosition = new AtomicLong();

    private LineCycle(ImmutableBytes content, int[] starts, int[] ends, int first, int count) {
        this.content = content;
        this.starts = starts;
        this.ends = ends;
        this.first = first;
        this.count = count;
        int max = 0;
        for (int i = first; i < first + count; i++) {
            max = Math.max(max, ends[i] - starts[i]);
        }
        this.maxLineLength = max;
    }

    /**
     * Splits the data file's content into lines and keeps this runner's block.
     *
     * @throws IllegalArgumentException when the content has no lines
     */
    static LineCycle of(ParameterSpec.File spec, RunnerSlice slice) {
        ImmutableBytes content = spec.content();
        int length = content.length();
        int[] starts = new int[16];
        int[] ends = new int[16];
        int lines = 0;
        int start = 0;
        for (int i = 0; i <= length; i++) {
            // A last line without a newline counts; the empty text after a final newline does not.
            boolean endOfLine = i < length && content.byteAt(i) == '\n';
            boolean endOfFile = i == length && start < length;
            if (endOfLine || endOfFile) {
                int end = i > start && content.byteAt(i - 1) == '\r' ? i - 1 : i;
                if (lines == starts.length) {
                    starts = Arrays.copyOf(starts, lines * 2);
                    ends = Arrays.copyOf(ends, lines * 2);
                }
                starts[lines] = start;
                ends[lines] = end;
                lines++;
                start = i + 1;
            }
        }
        if (lines == 0) {
            throw new IllegalArgumentException(
                    where(spec) + "data file " + spec.source() + " has no lines");
        }
        int from = (int) slice.blockStart(lines);
        int to = (int) slice.blockEnd(lines);
        return new LineCycle(content, starts, ends, from, to - from);
    }

    private static String where(ParameterSpec.File spec) {
        return "parameter "
                + spec.name()
                + (spec.line() > 0 ? " (line " + spec.line() + ")" : "")
                + ": ";
    }

    /** Takes the next line and returns its number (from 0); safe to call from any thread. */
    int next() {
        return first + (int) Long.remainderUnsigned(nextPosition.getAndIncrement(), count);
    }

    int length(int line) {
        return ends[line] - starts[line];
    }

    void write(int line, ByteBuf out) {
        content.writeTo(out, starts[line], ends[line] - starts[line]);
    }

    int maxLineLength() {
        return maxLineLength;
    }

    /** How many lines this runner cycles through. */
    int lineCount() {
        return count;
    }
}
