package io.tcpload.runner.correlate;

import io.netty.buffer.ByteBuf;

/**
 * A region of a buffer read as ISO-8859-1 characters (one per byte, so offsets are byte offsets),
 * that gives up after a budget of character reads. A regular expression that backtracks without end
 * over a hostile response then stops with {@link BudgetExceeded} instead of holding the event loop.
 */
final class BoundedChars implements CharSequence {
    /** Thrown when the budget of character reads is spent. */
    static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded() {
            super(null, null, false, false);
        }
    }

    private final ByteBuf buf;
    private final int from;
    private final int length;
    private final long[] budget;

    BoundedChars(ByteBuf buf, int from, int length, long budget) {
        this(buf, from, length, new long[] {budget});
    }

    private BoundedChars(ByteBuf buf, int from, int length, long[] budget) {
        this.buf = buf;
        this.from = from;
        this.length = length;
        this.budget = budget;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        if (--budget[0] < 0) {
            throw new BudgetExceeded();
        }
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException(index);
        }
        return (char) buf.getUnsignedByte(from + index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new BoundedChars(buf, from + start, end - start, budget);
    }

    @Override
    public String toString() {
        return buf.toString(from, length, java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
