package io.tcpload.runner.template;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.profile.ParameterSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lines of one FILE parameter's data file for this runner, read once and shared by every
 * connection and event loop: each use takes the next line of this runner's block, back to its first
 * line after its last. Lock-free and allocation-free after construction; the file is kept as one
 * array with line offsets, so many short lines cost 8 bytes each on top of their text.
 */
final class LineCycle {

    /** Refuses data files that would take an unreasonable share of the heap. */
    static final long MAX_FILE_BYTES = 1L << 30;

    private final byte[] content;
    private final int[] starts;
    private final int[] ends;
    private final int first;
    private final int count;
    private final int maxLineLength;
    private final AtomicLong nextPosition = new AtomicLong();

    private LineCycle(byte[] content, int[] starts, int[] ends, int first, int count) {
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
     * Reads the data file and keeps this runner's block of its lines.
     *
     * @throws IllegalArgumentException when the file cannot be read, is too large or has no lines
     */
    static LineCycle load(ParameterSpec.File spec, RunnerSlice slice) {
        byte[] content;
        try {
            long size = Files.size(spec.path());
            if (size > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(
                        where(spec)
                                + "data file "
                                + spec.path()
                                + " has "
                                + size
                                + " bytes, more than the limit of "
                                + MAX_FILE_BYTES);
            }
            content = Files.readAllBytes(spec.path());
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    where(spec) + "cannot read data file " + spec.path() + ": " + e, e);
        }
        return of(content, slice, spec);
    }

    /** Splits content into lines and keeps this runner's block. */
    static LineCycle of(byte[] content, RunnerSlice slice, ParameterSpec.File spec) {
        int[] starts = new int[16];
        int[] ends = new int[16];
        int lines = 0;
        int start = 0;
        for (int i = 0; i <= content.length; i++) {
            // A last line without a newline counts; the empty text after a final newline does not.
            boolean endOfLine = i < content.length && content[i] == '\n';
            boolean endOfFile = i == content.length && start < content.length;
            if (endOfLine || endOfFile) {
                int end = i > start && content[i - 1] == '\r' ? i - 1 : i;
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
                    where(spec) + "data file " + spec.path() + " has no lines");
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
        out.writeBytes(content, starts[line], ends[line] - starts[line]);
    }

    int maxLineLength() {
        return maxLineLength;
    }

    /** How many lines this runner cycles through. */
    int lineCount() {
        return count;
    }
}
