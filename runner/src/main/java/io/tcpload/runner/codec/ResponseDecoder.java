package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * What both response decoders share: one {@link ResponseOutcome} per complete response, the
 * one-response rule of short connections, and discarding everything after a framing error.
 *
 * <p>Not sharable: one instance per connection, called on its event loop.
 */
abstract class ResponseDecoder extends ByteToMessageDecoder {
    private final boolean singleResponse;

    /** Told the size of every read, before decoding: the engine's byte count, without a handler. */
    private IntConsumer bytesRead = bytes -> {};

    private boolean responded;
    private boolean failed;

    ResponseDecoder(boolean singleResponse) {
        this.singleResponse = singleResponse;
    }

    void countReadsInto(IntConsumer counter) {
        this.bytesRead = counter;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf buffer) {
            bytesRead.accept(buffer.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    /**
     * Frames and judges at most one response from {@code in}, consuming what it framed.
     *
     * @return the outcome, or {@code null} if no response completed
     * @throws ResponseFramingException if the bytes cannot be framed
     */
    abstract ResponseOutcome decodeResponse(ByteBuf in);

    /**
     * Completes a response on close if the framing allows it (close-delimited HTTP bodies).
     *
     * @return the outcome, or {@code null}
     */
    ResponseOutcome decodeOnClose() {
        return null;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            if (singleResponse && responded) {
                throw extraBytes(in.readableBytes());
            }
            ResponseOutcome outcome = decodeResponse(in);
            if (outcome == null) {
                return;
            }
            if (singleResponse) {
                responded = true;
                if (in.isReadable()) {
                    // As in wrktcp, a read that overshoots the response fails it as a whole.
                    throw extraBytes(in.readableBytes());
                }
            }
            out.add(outcome);
        } catch (ResponseFramingException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    @Override
    protected final void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
            throws Exception {
        super.decodeLast(ctx, in, out);
        if (failed || (singleResponse && responded)) {
            return;
        }
        ResponseOutcome outcome = decodeOnClose();
        if (outcome != null) {
            responded = true;
            out.add(outcome);
        }
    }

    private static ResponseFramingException extraBytes(int count) {
        return new ResponseFramingException(
                count + (count == 1 ? " byte" : " bytes") + " after a complete response");
    }
}
