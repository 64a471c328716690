package io.tcpload.runner.dryrun;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseInspector;
import io.tcpload.runner.codec.ResponseInspector.Inspection;
import io.tcpload.runner.report.DryRunText;
import io.tcpload.runner.tls.ClientTls;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A dry run's wire: plain blocking sockets, one connection and one request at a time, each connect
 * and read bounded by the timeout; with TLS the connection shakes hands with the load's own TLS
 * context ({@link TlsStreams}), so it checks what the load would.
 */
final class DryRunWire {
    private static final int READ_CHUNK = 8192;

    private DryRunWire() {}

    /**
     * One connection: its socket, and the streams requests and responses go through (the socket's
     * own, or with TLS the clear side of its records).
     */
    record Connection(Socket socket, InputStream in, OutputStream out, TlsStreams tls) {
        /** Sends {@code request} whole. */
        void send(byte[] request) throws IOException {
            out.write(request);
            out.flush();
        }
    }

    /** A response's bytes as they arrived, and how they were read. */
    record Received(byte[] bytes, Inspection inspection) {}

    /**
     * Connects within {@code timeoutMs}, with TLS when {@code tls} is not null, saying so on {@code
     * printout}.
     */
    static Connection connect(
            InetSocketAddress address, int timeoutMs, ClientTls tls, Printout printout)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(timeoutMs);
            socket.connect(address, timeoutMs);
        } catch (IOException e) {
            socket.close();
            throw new IOException("connect to " + address + ": " + e.getMessage(), e);
        }
        printout.line(
                "  connected to "
                        + address.getAddress().getHostAddress()
                        + ":"
                        + address.getPort());
        if (tls == null) {
            return new Connection(socket, socket.getInputStream(), socket.getOutputStream(), null);
        }
        TlsStreams streams;
        try {
            streams = TlsStreams.open(socket, tls, address.getPort(), timeoutMs);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        printout.line("  TLS handshake done: " + streams.agreed());
        return new Connection(socket, streams.in(), streams.out(), streams);
    }

    /**
     * Reads until the inspector has a full response, the server closes, or the time is up.
     *
     * @throws SocketTimeoutException when no full response came within {@code timeoutMs}
     * @throws IOException when the connection closed first, or bytes followed a full response
     * @throws ResponseFramingException when the bytes cannot be framed
     */
    static Received read(Connection connection, ResponseInspector inspector, int timeoutMs)
            throws IOException {
        long deadlineNs = System.nanoTime() + timeoutMs * 1_000_000L;
        ByteBuf received = Unpooled.buffer();
        Socket socket = connection.socket();
        try {
            InputStream in = connection.in();
            byte[] chunk = new byte[READ_CHUNK];
            while (true) {
                long leftMs = (deadlineNs - System.nanoTime()) / 1_000_000L;
                if (leftMs <= 0) {
                    throw new SocketTimeoutException();
                }
                socket.setSoTimeout((int) Math.max(1, leftMs));
                int n = in.read(chunk);
                if (n < 0) {
                    Inspection closed = inspector.inspectOnClose();
                    if (closed != null) {
                        return new Received(bytesOf(received), closed);
                    }
                    throw new IOException(
                            received.writerIndex() == 0
                                    ? "connection closed before any byte of the response"
                                    : "connection closed before a full response ("
                                            + DryRunText.bytes(received.writerIndex())
                                            + " received)");
                }
                received.writeBytes(chunk, 0, n);
                Inspection inspection = inspector.inspect(received);
                if (inspection != null) {
                    if (received.isReadable()) {
                        throw new IOException(
                                DryRunText.bytes(received.readableBytes())
                                        + " after a complete response");
                    }
                    return new Received(bytesOf(received), inspection);
                }
            }
        } finally {
            received.release();
        }
    }

    /** Every byte the buffer received, read or not. */
    private static byte[] bytesOf(ByteBuf buffer) {
        byte[] bytes = new byte[buffer.writerIndex()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** Closes {@code connection}, if any; null, for the caller's variable. */
    static Connection close(Connection connection) {
        if (connection != null) {
            if (connection.tls() != null) {
                connection.tls().close();
            }
            try {
                connection.socket().close();
            } catch (IOException ignored) {
                // Closing is best effort: the dry run is over with this connection either way.
            }
        }
        return null;
    }
}
