package io.tcpload.runner.dryrun;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslHandler;
import io.tcpload.runner.tls.ClientTls;
import io.tcpload.runner.tls.TlsFailures;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLSession;

/**
 * TLS over a blocking socket for the dry run, by the very handler the load's connections use
 * ({@link ClientTls#newHandler}): the handler sits in a channel of its own that no event loop
 * drives, and this class carries its records to and from the socket. So a dry run checks the same
 * chain, name, client certificate and protocols as the load would.
 *
 * <p>Reads block on the socket with its own timeout, as plain reads do. Not thread-safe: one
 * request at a time.
 */
final class TlsStreams implements Closeable {
    private static final int READ_CHUNK = 16 * 1024;

    private final Socket socket;
    private final EmbeddedChannel channel;
    private final SslHandler handler;
    private final byte[] raw = new byte[READ_CHUNK];

    /** Clear bytes received and not yet read; null when none. */
    private ByteBuf pending;

    /** Whether the server ended the stream (a TCP close or its close_notify). */
    private boolean ended;

    private final InputStream in =
            new InputStream() {
                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
                }

                @Override
                public int read(byte[] into, int offset, int length) throws IOException {
                    return readClear(into, offset, length);
                }
            };

    private final OutputStream out =
            new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] from, int offset, int length) throws IOException {
                    writeClear(from, offset, length);
                }
            };

    private TlsStreams(Socket socket, EmbeddedChannel channel, SslHandler handler) {
        this.socket = socket;
        this.channel = channel;
        this.handler = handler;
    }

    /**
     * Shakes hands over {@code socket}, connected to {@code port}, within {@code timeoutMs}.
     *
     * @throws IOException when the handshake fails (its reason as the load would count it, {@code
     *     tls: ...}), the server closes, or the time is up
     */
    static TlsStreams open(Socket socket, ClientTls tls, int port, int timeoutMs)
            throws IOException {
        EmbeddedChannel channel = new EmbeddedChannel();
        SslHandler handler = tls.newHandler(channel.alloc(), port);
        TlsStreams streams = new TlsStreams(socket, channel, handler);
        try {
            // The channel is active already: the handler writes its hello as it is added.
            streams.guarded(() -> channel.pipeline().addLast(handler));
            streams.handshake(timeoutMs);
            return streams;
        } catch (IOException | RuntimeException e) {
            streams.close();
            throw e;
        }
    }

    InputStream in() {
        return in;
    }

    OutputStream out() {
        return out;
    }

    /** The protocol and cipher suite agreed, for the dry run's report. */
    String agreed() {
        SSLSession session = handler.engine().getSession();
        return session.getProtocol() + ", " + session.getCipherSuite();
    }

    private void handshake(int timeoutMs) throws IOException {
        long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            sendRecords();
            if (handler.handshakeFuture().isDone()) {
                if (!handler.handshakeFuture().isSuccess()) {
                    throw new IOException(TlsFailures.reason(handler.handshakeFuture().cause()));
                }
                return;
            }
            long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) {
                throw new IOException("tls handshake timed out within " + timeoutMs + " ms");
            }
            socket.setSoTimeout((int) Math.max(1, leftMs));
            boolean open;
            try {
                open = receiveRecords();
            } catch (SocketTimeoutException e) {
                throw new IOException("tls handshake timed out within " + timeoutMs + " ms", e);
            }
            if (!open) {
                throw new IOException("tls: the server closed the connection during the handshake");
            }
        }
    }

    private int readClear(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (true) {
            if (pending == null) {
                pending = channel.readInbound();
            }
            if (pending != null) {
                if (!pending.isReadable()) {
                    pending.release();
                    pending = null;
                    continue;
                }
                int n = Math.min(length, pending.readableBytes());
                pending.readBytes(into, offset, n);
                return n;
            }
            if (ended) {
                return -1;
            }
            // The handler may owe the server records (a key update) before more arrives.
            sendRecords();
            if (!receiveRecords() || handler.engine().isInboundDone()) {
                ended = true;
            }
        }
    }

    private void writeClear(byte[] from, int offset, int length) throws IOException {
        ByteBuf clear = Unpooled.copiedBuffer(from, offset, length);
        guarded(() -> channel.writeAndFlush(clear));
        sendRecords();
    }

    /** Writes what the handler produced to the socket. */
    private void sendRecords() throws IOException {
        OutputStream wire = socket.getOutputStream();
        boolean wrote = false;
        ByteBuf record;
        while ((record = channel.readOutbound()) != null) {
            try {
                record.readBytes(wire, record.readableBytes());
                wrote = true;
            } finally {
                record.release();
            }
        }
        if (wrote) {
            wire.flush();
        }
    }

    /**
     * Reads what the socket has (blocking up to its timeout) into the handler.
     *
     * @return false when the server closed the connection
     */
    private boolean receiveRecords() throws IOException {
        int n = socket.getInputStream().read(raw);
        if (n < 0) {
            return false;
        }
        // A copy: the handler may keep the buffer while a record is incomplete.
        ByteBuf received = Unpooled.copiedBuffer(raw, 0, n);
        guarded(() -> channel.writeInbound(received));
        return true;
    }

    /**
     * Runs {@code step} on the channel; a failure the handler raised (a bad record, a fatal alert)
     * becomes an {@link IOException} with its TLS reason.
     */
    private void guarded(Runnable step) throws IOException {
        try {
            step.run();
            channel.checkException();
        } catch (Exception e) {
            // The channel rethrows the handler's checked exceptions undeclared, hence Exception.
            throw new IOException(TlsFailures.reason(e), e);
        }
    }

    /**
     * Sends the close_notify and releases the handler and what it holds; the socket is the caller's
     * to close.
     */
    @Override
    public void close() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
        try {
            channel.close();
            sendRecords();
        } catch (Exception e) {
            // Best effort: the connection is being dropped either way.
        }
        try {
            channel.finishAndReleaseAll();
        } catch (Exception e) {
            // A failure the handler recorded was reported already; what it held is released.
        }
    }
}
