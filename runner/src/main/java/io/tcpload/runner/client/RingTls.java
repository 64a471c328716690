package io.tcpload.runner.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;

/**
 * The TLS side of a bare socket ({@link RingLink}): its engine, which turns the bytes the socket
 * reads into the plaintext the response decoder reads, and requests into the records the socket
 * sends. What {@code SslHandler} does in a channel's pipeline, without the pipeline: the engine is
 * called only from the connection's loop, and its delegated tasks (the check of the server's
 * certificate among them) run there too, at once: the handshake's crypto is the load, and another
 * thread would only add a hand-over.
 *
 * <p>The plaintext buffer exists only while it holds bytes not yet decoded, so that thousands of
 * idle kept-open connections hold no buffer for it.
 *
 * <p>Threading: confined to the connection's event loop.
 */
final class RingTls {
    /** Room for a record's header, padding and tag beside its plaintext, whatever the suite. */
    private static final int RECORD_OVERHEAD_BYTES = 512;

    private static final int MAX_RECORD_PLAINTEXT_BYTES = 16 * 1024;

    private static final ByteBuffer NOTHING = Unpooled.EMPTY_BUFFER.nioBuffer();

    private final SSLEngine engine;
    private final ByteBufAllocator alloc;

    /** Decrypted bytes not yet consumed by the decoder, or null. */
    private ByteBuf plain;

    private boolean handshaking = true;
    private boolean inboundDone;

    RingTls(SSLEngine engine, ByteBufAllocator alloc) {
        this.engine = engine;
        this.alloc = alloc;
    }

    /** Starts the handshake; its first records come from {@link #wrapHandshake}. */
    void begin() throws SSLException {
        engine.beginHandshake();
    }

    /** The engine's next need: wrap, unwrap, run a task or nothing. */
    HandshakeStatus status() {
        return engine.getHandshakeStatus();
    }

    /**
     * Whether the handshake has just ended (it reports so once): the connection may carry requests
     * from now on.
     */
    boolean handshakeEnded() {
        if (handshaking && engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
            handshaking = false;
            return true;
        }
        return false;
    }

    boolean handshaking() {
        return handshaking;
    }

    /** Runs the engine's delegated tasks here, on the loop. */
    void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /**
     * What the engine has to send of the handshake (or of a key update, or a close), as records.
     *
     * @return the records, or null if it produced none
     */
    ByteBuf wrapHandshake() throws SSLException {
        ByteBuf records = alloc.directBuffer(engine.getSession().getPacketBufferSize());
        try {
            while (true) {
                SSLEngineResult result = wrapOnce(NOTHING, records);
                if (result.getStatus() == Status.BUFFER_OVERFLOW) {
                    continue;
                }
                if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                    runTasks();
                }
                if (result.bytesProduced() == 0
                        || result.getStatus() == Status.CLOSED
                        || engine.getHandshakeStatus() != HandshakeStatus.NEED_WRAP) {
                    break;
                }
            }
        } catch (SSLException | RuntimeException e) {
            records.release();
            throw e;
        }
        if (!records.isReadable()) {
            records.release();
            return null;
        }
        return records;
    }

    /**
     * Encrypts all of {@code request} into records.
     *
     * @return a new buffer holding the records
     */
    ByteBuf wrap(ByteBuf request) throws SSLException {
        int length = request.readableBytes();
        ByteBuf records =
                alloc.directBuffer(
                        length + RECORD_OVERHEAD_BYTES * (length / MAX_RECORD_PLAINTEXT_BYTES + 1));
        ByteBuffer source = request.nioBuffer();
        try {
            while (source.hasRemaining()) {
                SSLEngineResult result = wrapOnce(source, records);
                if (result.getStatus() == Status.CLOSED) {
                    throw new SSLException("the connection's TLS side is closed");
                }
                if (result.getStatus() == Status.OK
                        && result.bytesConsumed() == 0
                        && result.bytesProduced() == 0) {
                    // Never loop on an engine that takes nothing.
                    throw new SSLException("the TLS engine took none of the request");
                }
            }
        } catch (SSLException | RuntimeException e) {
            records.release();
            throw e;
        }
        return records;
    }

    /** One wrap into the free space of {@code records}, which grows when the engine asks. */
    private SSLEngineResult wrapOnce(ByteBuffer source, ByteBuf records) throws SSLException {
        SSLEngineResult result =
                engine.wrap(
                        source, records.nioBuffer(records.writerIndex(), records.writableBytes()));
        records.writerIndex(records.writerIndex() + result.bytesProduced());
        if (result.getStatus() == Status.BUFFER_OVERFLOW) {
            records.ensureWritable(engine.getSession().getPacketBufferSize());
        }
        return result;
    }

    /**
     * Decrypts as many whole records of {@code net} as it holds, consuming them; the plaintext is
     * in {@link #plain()}. During the handshake the engine is called once more than the records
     * need, even with nothing new: OpenSSL's engine takes a handshake message in on one call and
     * moves the handshake on only at the next, so without that call a handshake whose last message
     * has arrived (or whose client side has just been sent) would wait for bytes that never come.
     *
     * @return the plaintext bytes produced; a record cut short waits for the next read
     */
    int unwrap(ByteBuf net) throws SSLException {
        int produced = 0;
        boolean again = net.isReadable() || handshaking;
        while (again && !inboundDone) {
            if (plain == null) {
                plain = alloc.directBuffer(Math.max(1024, net.readableBytes()));
            } else {
                plain.discardSomeReadBytes();
                plain.ensureWritable(net.readableBytes());
            }
            SSLEngineResult result =
                    engine.unwrap(
                            net.nioBuffer(),
                            plain.nioBuffer(plain.writerIndex(), plain.writableBytes()));
            net.skipBytes(result.bytesConsumed());
            plain.writerIndex(plain.writerIndex() + result.bytesProduced());
            produced += result.bytesProduced();
            again = net.isReadable();
            switch (result.getStatus()) {
                case BUFFER_OVERFLOW -> {
                    plain.ensureWritable(engine.getSession().getApplicationBufferSize());
                    again = true;
                }
                case CLOSED -> inboundDone = true;
                case BUFFER_UNDERFLOW -> {
                    return produced;
                }
                default -> {
                    if (result.bytesConsumed() == 0 && result.bytesProduced() == 0) {
                        return produced;
                    }
                    // A record consumed: a task or a reply the engine needs comes first.
                    if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                        runTasks();
                    }
                    HandshakeStatus next = engine.getHandshakeStatus();
                    if (next == HandshakeStatus.NEED_WRAP
                            || (handshaking && next != HandshakeStatus.NEED_UNWRAP)) {
                        return produced;
                    }
                    again |= handshaking;
                }
            }
        }
        return produced;
    }

    /** The plaintext not yet decoded; null when there is none. */
    ByteBuf plain() {
        return plain;
    }

    /** The decoder has taken what it could: an empty plaintext buffer goes back to the pool. */
    void decoded() {
        if (plain != null && !plain.isReadable()) {
            plain.release();
            plain = null;
        }
    }

    /** Whether the server ended its TLS side ({@code close_notify}): the end of the stream. */
    boolean inboundDone() {
        return inboundDone;
    }

    /**
     * The client's {@code close_notify}, to send before the socket closes, as clients that close
     * cleanly do (a server may otherwise log the close as an error or drop the session); null while
     * the handshake has not ended, or if the engine cannot make it.
     */
    ByteBuf closeNotify() {
        if (handshaking) {
            return null;
        }
        engine.closeOutbound();
        try {
            return wrapHandshake();
        } catch (SSLException | RuntimeException e) {
            return null;
        }
    }

    /** Lets go of the engine (OpenSSL's holds native memory) and of the plaintext buffer. */
    void release() {
        if (plain != null) {
            plain.release();
            plain = null;
        }
        ReferenceCountUtil.release(engine);
    }
}
