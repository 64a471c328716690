package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;

/**
 * Frames wrktcp's length-prefixed responses: a head of {@code headLength} bytes holding a decimal
 * length field that counts the body ({@link LengthType#BODY}) or the whole response ({@link
 * LengthType#TOTAL}).
 *
 * <p>The field is parsed strictly, unlike wrktcp's {@code atol}: spaces around it and a leading
 * {@code +} are allowed, anything else that is not a digit is a framing error, so a garbled head is
 * never read as length 0. A declared size above {@code max_response_bytes} is an error as soon as
 * the head is there, before any of the body is awaited or buffered.
 *
 * <p>Immutable and thread-safe; parsing allocates nothing unless it fails.
 */
public final class LengthPrefixedFramer {
    /** The largest frame a {@link ByteBuf} can hold, whatever {@code max_response_bytes} says. */
    private static final long MAX_BUFFER_BYTES = Integer.MAX_VALUE - 8;

    private final int headLength;
    private final int lengthOffset;
    private final int lengthWidth;
    private final boolean countsBody;
    private final long maxResponseBytes;

    public LengthPrefixedFramer(ResponseSpec spec) {
        if (spec.headLength() < 1
                || spec.lengthBegin() < 1
                || spec.lengthWidth() < 1
                || spec.lengthWidth() > 18
                || spec.lengthBegin() - 1 + spec.lengthWidth() > spec.headLength()) {
            throw new IllegalArgumentException(
                    "length field at "
                            + spec.lengthBegin()
                            + " width "
                            + spec.lengthWidth()
                            + " does not fit a "
                            + spec.headLength()
                            + "-byte head");
        }
        this.headLength = spec.headLength();
        this.lengthOffset = spec.lengthBegin() - 1;
        this.lengthWidth = spec.lengthWidth();
        this.countsBody = spec.lengthType() == LengthType.BODY;
        this.maxResponseBytes = Math.min(spec.maxResponseBytes(), MAX_BUFFER_BYTES);
    }

    public int headLength() {
        return headLength;
    }

    /**
     * The size in bytes of the response starting at {@code in}'s reader index, head included, or -1
     * while fewer than {@code headLength} bytes are readable. Does not move any index.
     *
     * @throws ResponseFramingException if the length field is not a non-negative decimal number, or
     *     the size is smaller than the head or larger than {@code max_response_bytes}
     */
    public int responseSize(ByteBuf in) {
        if (in.readableBytes() < headLength) {
            return -1;
        }
        int fieldIndex = in.readerIndex() + lengthOffset;
        long declared = parseLength(in, fieldIndex);
        long size = countsBody ? headLength + declared : declared;
        if (size < headLength) {
            throw new ResponseFramingException(
                    "declared response length "
                            + declared
                            + " is shorter than the "
                            + headLength
                            + "-byte head");
        }
        if (size > maxResponseBytes) {
            throw new ResponseFramingException(
                    "declared response length "
                            + (countsBody
                                    ? size + " (" + headLength + "-byte head + " + declared + ")"
                                    : Long.toString(size))
                            + " exceeds max_response_bytes "
                            + maxResponseBytes);
        }
        return (int) size;
    }

    private long parseLength(ByteBuf in, int fieldIndex) {
        int from = fieldIndex;
        int end = fieldIndex + lengthWidth;
        while (from < end && isBlank(in.getByte(from))) {
            from++;
        }
        while (end > from && isBlank(in.getByte(end - 1))) {
            end--;
        }
        if (from < end && in.getByte(from) == '+') {
            from++;
        } else if (from < end && in.getByte(from) == '-') {
            throw badField(in, fieldIndex, "is negative");
        }
        if (from == end) {
            throw badField(in, fieldIndex, "has no digits");
        }
        long value = 0;
        for (int i = from; i < end; i++) {
            int digit = in.getByte(i) - '0';
            if (digit < 0 || digit > 9) {
                throw badField(in, fieldIndex, "is not a number");
            }
            value = value * 10 + digit; // at most 18 digits: cannot overflow
        }
        return value;
    }

    private ResponseFramingException badField(ByteBuf in, int fieldIndex, String problem) {
        return new ResponseFramingException(
                "response length field "
                        + ResponseFramingException.quote(in, fieldIndex, lengthWidth)
                        + " "
                        + problem);
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }
}
