package io.tcpload.runner.decode;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.tcpload.runner.codec.CheckedResponse;
import io.tcpload.runner.codec.CodeJudge;
import io.tcpload.runner.codec.LengthPrefixedFramer;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.profile.CodeLocation;

/**
 * Decodes wrktcp's length-prefixed responses: {@link LengthPrefixedFramer} frames, {@link
 * CodeJudge} judges the head or body. A response of at most {@value #IN_PLACE_BYTES} bytes is
 * awaited whole and judged in place; a longer one is consumed as it arrives, keeping a copy of its
 * head and of the leading body bytes that the judges and value rules read (the whole body for a tag
 * that may lie anywhere, none for a code in the head). So a long response costs a connection what
 * its judge reads of it, and the input buffer never grows with it: awaiting 15 MB whole reallocated
 * the input again and again as it filled (seen: a loop busy for seconds with 20 such connections,
 * no response counted meanwhile). One instance per connection.
 */
final class LengthPrefixedDecoder extends ResponseDecoder {
    /** The longest response awaited whole in the input buffer. */
    static final int IN_PLACE_BYTES = 64 * 1024;

    /** A copy buffer that grew beyond this is let go of after its response. */
    private static final int RETAINED_COPY_BYTES = 64 * 1024;

    private final LengthPrefixedFramer framer;
    private final ResponseCodecs.Judging judging;
    private final long bodyBytesKept;

    /** The size of the long response being consumed, head included, or -1 when none is. */
    private int streamedSize = -1;

    /** How many of its bytes have been consumed. */
    private int streamedBytes;

    /** How many of its leading bytes are copied: the head and the body bytes the rules read. */
    private int copiedLimit;

    /**
     * How many body bytes the copy holds when the judges are next asked whether it decides them:
     * doubling, so that a tag that never comes costs a linear scan in all, not one per read.
     */
    private int nextDecisionBytes;

    /** Its head and leading body bytes; null until the first long response. */
    private ByteBuf copy;

    LengthPrefixedDecoder(
            LengthPrefixedFramer framer, ResponseCodecs.Judging judging, boolean singleResponse) {
        super(singleResponse);
        this.framer = framer;
        this.judging = judging;
        this.bodyBytesKept = judging.bodyBytesNeeded();
    }

    @Override
    Object decodeResponse(ByteBuf in) {
        if (streamedSize >= 0) {
            return consume(in);
        }
        int size = framer.responseSize(in);
        if (size < 0) {
            return null;
        }
        if (in.readableBytes() >= size) {
            Object outcome = judge(in, in.readerIndex(), size - framer.headLength());
            in.skipBytes(size);
            return outcome;
        }
        if (size <= IN_PLACE_BYTES) {
            return null;
        }
        streamedSize = size;
        streamedBytes = 0;
        long bodyLength = size - framer.headLength();
        copiedLimit = framer.headLength() + (int) Math.min(bodyLength, bodyBytesKept);
        nextDecisionBytes = IN_PLACE_BYTES;
        // Grows with the bytes that actually arrive, never with a declared size.
        copy = copy != null ? copy.clear() : in.alloc().directBuffer(256);
        return consume(in);
    }

    /** Consumes what has arrived of the long response; judges it once it is complete. */
    private Object consume(ByteBuf in) {
        int n = Math.min(in.readableBytes(), streamedSize - streamedBytes);
        int copied = Math.min(n, copiedLimit - streamedBytes);
        if (copied > 0) {
            copyFrom(in, copied);
        }
        in.skipBytes(n);
        streamedBytes += n;
        if (streamedBytes < streamedSize) {
            return null;
        }
        streamedSize = -1;
        Object outcome =
                judge(copy, copy.readerIndex(), copy.readableBytes() - framer.headLength());
        if (copy.capacity() > RETAINED_COPY_BYTES) {
            // The values carried are copies: one long body does not pin memory until the next.
            copy.release();
            copy = null;
        }
        return outcome;
    }

    /**
     * Appends {@code n} bytes from {@code in}'s reader index to the copy. The copy grows by
     * doubling, off the heap (a collector would copy a long body from space to space), and stops
     * growing once its leading body bytes decide every judge: a tag near the start of a long body
     * costs only the bytes up to it.
     */
    private void copyFrom(ByteBuf in, int n) {
        int needed = copy.readableBytes() + n;
        if (needed > copy.capacity()) {
            int grown = (int) Math.min(copiedLimit, Math.max(needed, 2L * copy.capacity()));
            ByteBuf bigger = in.alloc().directBuffer(grown, grown);
            bigger.writeBytes(copy, copy.readerIndex(), copy.readableBytes());
            copy.release();
            copy = bigger;
        }
        copy.writeBytes(in, in.readerIndex(), n);
        int headLength = framer.headLength();
        int bodyBytes = copy.readableBytes() - headLength;
        if (bodyBytes >= nextDecisionBytes) {
            if (judging.bodyDecidedBy(copy, copy.readerIndex() + headLength, bodyBytes)) {
                copiedLimit = streamedBytes + n;
            } else {
                nextDecisionBytes = (int) Math.min(Integer.MAX_VALUE, 2L * nextDecisionBytes);
            }
        }
    }

    /**
     * Judges a response whose head starts at {@code start} of {@code buf}, followed by {@code
     * bodyLength} bytes of its body (all of it, or the leading bytes the rules read).
     */
    private Object judge(ByteBuf buf, int start, int bodyLength) {
        int headLength = framer.headLength();
        CodeJudge judge = judging.judge();
        boolean success =
                judge.location() == CodeLocation.HEAD
                        ? judge.isSuccess(buf, start, headLength)
                        : judge.isSuccess(buf, start + headLength, bodyLength);
        ResponseOutcome outcome = success ? ResponseOutcome.SUCCESS : ResponseOutcome.FAILURE;
        ResponseValues values = judging.values();
        if (values == null) {
            return outcome;
        }
        ResponseValues.Checked checked =
                values.check(buf, start, headLength, buf, start + headLength, bodyLength, success);
        return new CheckedResponse(outcome, checked, values);
    }

    /** What this connection's copy of long responses costs now; for tests. */
    int retainedCopyBytes() {
        return copy == null ? 0 : copy.capacity();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (copy != null) {
            copy.release();
            copy = null;
        }
    }
}
