package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.format.ByteText;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.ResponseSpec;

/**
 * Decides whether a response carries the success code, reading the head or body in place.
 *
 * <p>FIXED takes {@code fixedCodeLength} bytes at 1-based {@code fixedCodeBegin} of the area; a
 * range outside the area is a failure. XML takes the text after the first literal {@code codeTag}
 * up to the next {@code </}. JSON takes the first double-quoted string after the first literal
 * {@code codeTag}. A missing tag, quote or closing tag is a failure, never an error. The code must
 * equal {@code codeSuccess}'s UTF-8 bytes exactly.
 *
 * <p>Immutable and thread-safe: one instance serves every connection of a run. Judging allocates
 * nothing.
 */
public final class CodeJudge {
    private static final byte[] XML_CLOSE = {'<', '/'};

    private final CodeType type;
    private final CodeLocation location;
    private final byte[] tag;
    private final byte[] success;
    private final int fixedBegin;
    private final int fixedLength;

    public CodeJudge(ResponseSpec spec) {
        this.type = spec.codeType();
        this.location = spec.codeLocation();
        this.tag = ByteText.encode(spec.codeTag());
        this.success = ByteText.encode(spec.codeSuccess());
        this.fixedBegin = spec.fixedCodeBegin();
        this.fixedLength = spec.fixedCodeLength();
    }

    /** Whether the code is looked for in the head or in the body. */
    public CodeLocation location() {
        return location;
    }

    /**
     * How many leading bytes of an area {@link #isSuccess} reads: a fixed code's end, or {@link
     * Long#MAX_VALUE} for a tag that may lie anywhere. A framer that copies a body keeps only
     * these.
     */
    public long bytesNeeded() {
        if (type != CodeType.FIXED) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, (long) fixedBegin - 1 + Math.max(0, fixedLength));
    }

    /**
     * Whether the area {@code [index, index + length)} of {@code buf} holds the success code. Reads
     * with absolute indexes; the buffer's indexes are not changed.
     */
    public boolean isSuccess(ByteBuf buf, int index, int length) {
        int end = index + length;
        return switch (type) {
            case FIXED -> fixedMatches(buf, index, length);
            case XML -> xmlMatches(buf, index, end);
            case JSON -> jsonMatches(buf, index, end);
        };
    }

    /**
     * Whether the leading {@code length} bytes of an area at {@code index} of {@code buf} already
     * decide {@link #isSuccess} for the whole area, however long: a fixed code's range lies within
     * them, or the first tag and the end of the code after it do. A framer that copies a long body
     * for a tag stops copying there.
     */
    public boolean decidedBy(ByteBuf buf, int index, int length) {
        return type == CodeType.FIXED
                ? length >= bytesNeeded()
                : codeRange(buf, index, length) != null;
    }

    /**
     * Where the code lies in the area {@code [index, index + length)}: {@code {from, length}} as
     * absolute indexes of {@code buf}, or null when there is none (no tag, a range outside the
     * area). The same rule {@link #isSuccess} applies, for showing what was found.
     */
    int[] codeRange(ByteBuf buf, int index, int length) {
        int end = index + length;
        switch (type) {
            case FIXED -> {
                long from = (long) fixedBegin - 1;
                if (from < 0 || fixedLength < 0 || from + fixedLength > length) {
                    return null;
                }
                return new int[] {index + (int) from, fixedLength};
            }
            case XML -> {
                int tagAt = indexOf(buf, index, end, tag);
                if (tagAt < 0) {
                    return null;
                }
                int codeFrom = tagAt + tag.length;
                int codeEnd = indexOf(buf, codeFrom, end, XML_CLOSE);
                return codeEnd < 0 ? null : new int[] {codeFrom, codeEnd - codeFrom};
            }
            default -> {
                int tagAt = indexOf(buf, index, end, tag);
                if (tagAt < 0) {
                    return null;
                }
                int open = buf.indexOf(tagAt + tag.length, end, (byte) '"');
                int close = open < 0 ? -1 : buf.indexOf(open + 1, end, (byte) '"');
                return close < 0 ? null : new int[] {open + 1, close - open - 1};
            }
        }
    }

    private boolean fixedMatches(ByteBuf buf, int index, int length) {
        long from = (long) fixedBegin - 1;
        if (from < 0 || fixedLength < 0 || from + fixedLength > length) {
            return false;
        }
        return regionEquals(buf, index + (int) from, fixedLength, success);
    }

    private boolean xmlMatches(ByteBuf buf, int index, int end) {
        int tagAt = indexOf(buf, index, end, tag);
        if (tagAt < 0) {
            return false;
        }
        int codeFrom = tagAt + tag.length;
        int codeEnd = indexOf(buf, codeFrom, end, XML_CLOSE);
        return codeEnd >= 0 && regionEquals(buf, codeFrom, codeEnd - codeFrom, success);
    }

    private boolean jsonMatches(ByteBuf buf, int index, int end) {
        int tagAt = indexOf(buf, index, end, tag);
        if (tagAt < 0) {
            return false;
        }
        int open = buf.indexOf(tagAt + tag.length, end, (byte) '"');
        if (open < 0) {
            return false;
        }
        int close = buf.indexOf(open + 1, end, (byte) '"');
        return close >= 0 && regionEquals(buf, open + 1, close - open - 1, success);
    }

    /** The first index of {@code needle} within {@code [from, end)}, or -1. */
    static int indexOf(ByteBuf buf, int from, int end, byte[] needle) {
        if (needle.length == 0) {
            return from <= end ? from : -1;
        }
        int lastStart = end - needle.length;
        int at = from;
        while (at <= lastStart) {
            int first = buf.indexOf(at, lastStart + 1, needle[0]);
            if (first < 0) {
                return -1;
            }
            if (regionEquals(buf, first, needle.length, needle)) {
                return first;
            }
            at = first + 1;
        }
        return -1;
    }

    private static boolean regionEquals(ByteBuf buf, int index, int length, byte[] expected) {
        if (length != expected.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (buf.getByte(index + i) != expected[i]) {
                return false;
            }
        }
        return true;
    }
}
