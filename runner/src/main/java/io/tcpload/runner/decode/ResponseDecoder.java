package io.tcpload.runner.decode;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.tcpload.runner.codec.CheckedResponse;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseOutcome;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * What both response decoders share: one {@link ResponseOutcome} per complete response, the
 * one-response rule of short connections, discarding everything after a framing error, and what the
 * connection's handler needs to know about the byte stream besides the outcomes.
 *
 * <p>That stream view is read by the handler after this decoder in the same pipeline, on the same
 * event loop: {@link #inResponse} and {@link #bytesReceived} at any time, {@link
 * #responseStartOffset}, {@link #responseEndOffset} and {@link #closesConnection} while the
 * handler's {@code channelRead} of an outcome runs (they describe that response; the next one
 * overwrites them).
 *
 * <p>A connection that closes after some bytes of a response and before its end fires a {@link
 * ResponseFramingException} (through {@code exceptionCaught}) before {@code channelInactive}, so
 * that a cut response is told apart from a close between responses; a close-delimited HTTP body is
 * completed by the close instead.
 *
 * <p>A connection without a pipeline (a bare socket) drives the same decoder itself: {@link
 * #arrived} for each read, {@link #decodeNext} until no response completes, {@link #decodeAtEnd}
 * when the input ends.
 *
 * <p>Not sharable: one instance per connection, called on its event loop.
 */
public abstract class ResponseDecoder extends ByteToMessageDecoder {
    private final boolean singleResponse;

    /** Told the size of every read, before decoding: the engine's byte count, without a handler. */
    private IntConsumer bytesRead = bytes -> {};

    private boolean responded;
    private boolean failed;

    private long received;

    /** Whether a byte of a response that is not complete yet has arrived. */
    private boolean started;

    private long startOffset;
    private long firedStartOffset;
    private long firedEndOffset;
    private boolean firedCloses;

    ResponseDecoder(boolean singleResponse) {
        this.singleResponse = singleResponse;
    }

    void countReadsInto(IntConsumer counter) {
        this.bytesRead = counter;
    }

    /** Bytes received on this connection so far, counted before they are decoded. */
    public final long bytesReceived() {
        return received;
    }

    /** How many received bytes wait in the input for the rest of their response; for tests. */
    final int bufferedBytes() {
        return internalBuffer().readableBytes();
    }

    /** Whether some bytes of a response have arrived and its end has not. */
    public final boolean inResponse() {
        return started;
    }

    /**
     * Where the response just fired began in this connection's byte stream (0 for the first byte
     * received): a response whose first byte had arrived before its request was written cannot be
     * its answer.
     */
    public final long responseStartOffset() {
        return firedStartOffset;
    }

    /**
     * Where the response just fired ended in this connection's byte stream: the offset of the byte
     * after its last, so that the bytes of one response are told apart from those of the next when
     * one read holds both.
     */
    public final long responseEndOffset() {
        return firedEndOffset;
    }

    /**
     * Whether the response just fired said that the server closes the connection after it (HTTP's
     * {@code Connection: close}, an HTTP/1.0 response without keep-alive, a body ended by the
     * close); wrktcp's length-prefixed responses never say so.
     */
    public final boolean closesConnection() {
        return firedCloses;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf buffer) {
            arrived(buffer.readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    /**
     * Counts a read of {@code bytes} that reached the connection without a pipeline; its bytes are
     * then decoded with {@link #decodeNext}.
     */
    public final void arrived(int bytes) {
        received += bytes;
        bytesRead.accept(bytes);
    }

    /**
     * Without a pipeline: frames and judges at most one response from {@code in}, consuming what it
     * framed, as this decoder does for each read that a pipeline hands it.
     *
     * @return the outcome, as a pipeline would pass it on, or {@code null} if no response completed
     * @throws ResponseFramingException if the bytes cannot be framed; what follows is discarded
     */
    public final Object decodeNext(ByteBuf in) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        try {
            if (singleResponse && responded) {
                throw extraBytes(in.readableBytes());
            }
            if (!started) {
                skipBetweenResponses(in);
                if (!in.isReadable()) {
                    return null;
                }
                started = true;
                startOffset = received - in.readableBytes();
            }
            Object outcome = decodeResponse(in);
            if (outcome == null) {
                return null;
            }
            if (singleResponse) {
                responded = true;
                if (in.isReadable()) {
                    // As in wrktcp, a read that overshoots the response fails it as a whole.
                    throw extraBytes(in.readableBytes());
                }
            }
            fired(lastOnConnection(), received - in.readableBytes());
            return outcome;
        } catch (ResponseFramingException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    /**
     * Without a pipeline: the connection's input ended. A response that the close delimits is
     * complete.
     *
     * @return its outcome, or {@code null}
     * @throws ResponseFramingException if the close cut a response short
     */
    public final Object decodeAtEnd() {
        if (failed || (singleResponse && responded)) {
            return null;
        }
        Object outcome = started ? decodeOnClose() : null;
        if (outcome != null) {
            responded = true;
            // Delimited by the close: it ends with the last byte received.
            fired(true, received);
            return outcome;
        }
        if (started) {
            failed = true;
            throw new ResponseFramingException("connection closed before a full response");
        }
        return null;
    }

    /**
     * Frames and judges at most one response from {@code in}, consuming what it framed.
     *
     * @return the {@link ResponseOutcome} (a {@link CheckedResponse} for a rule that carries
     *     values), or {@code null} if no response completed
     * @throws ResponseFramingException if the bytes cannot be framed
     */
    abstract Object decodeResponse(ByteBuf in);

    /** Whether the response just returned by {@link #decodeResponse} was the connection's last. */
    boolean lastOnConnection() {
        return false;
    }

    /** Consumes bytes that may come between responses without starting one; none by default. */
    void skipBetweenResponses(ByteBuf in) {}

    /**
     * Completes a response on close if the framing allows it (close-delimited HTTP bodies).
     *
     * @return the outcome, or {@code null}
     */
    Object decodeOnClose() {
        return null;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        Object outcome = decodeNext(in);
        if (outcome != null) {
            out.add(outcome);
        }
    }

    @Override
    protected final void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
            throws Exception {
        super.decodeLast(ctx, in, out);
        if (!out.isEmpty()) {
            return;
        }
        try {
            Object outcome = decodeAtEnd();
            if (outcome != null) {
                out.add(outcome);
            }
        } catch (ResponseFramingException cut) {
            // Told before channelInactive, which follows at once: the handler then knows the
            // response was cut, not missing.
            ctx.fireExceptionCaught(cut);
        }
    }

    private void fired(boolean closes, long endOffset) {
        started = false;
        firedStartOffset = startOffset;
        firedEndOffset = endOffset;
        firedCloses = closes;
    }

    private static ResponseFramingException extraBytes(int count) {
        return new ResponseFramingException(
                count + (count == 1 ? " byte" : " bytes") + " after a complete response");
    }
}
