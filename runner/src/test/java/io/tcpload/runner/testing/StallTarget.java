package io.tcpload.runner.testing;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A keep-alive test target on 127.0.0.1, port 0, for the {@code 01_tiny} framing (request {@code
 * 00000014this is a test}: an 8-digit body length, then the body; response {@code
 * 00000013000000SUCCESS}) that stalls as its {@link StallPattern} says: it answers every request at
 * once, except that a request read inside a stall is answered when the stall ends. Requests on one
 * connection are answered in order, so pipelined requests queue behind a held one, as on a real
 * server that freezes.
 *
 * <p>The stalls are counted from construction ({@link #startNanos}, on the same {@link
 * System#nanoTime} clock as the tests). One thread per connection (see {@link ScriptedServer});
 * {@link #close} stops everything.
 */
public final class StallTarget implements AutoCloseable {
    /** The framed response of the 01_tiny profile: success code 000000. */
    public static final byte[] RESPONSE =
            "00000013000000SUCCESS".getBytes(StandardCharsets.US_ASCII);

    private static final int HEAD_BYTES = 8;

    /** Far above 01_tiny's 14 bytes; a larger declared body is a broken client, not a request. */
    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final StallPattern pattern;
    private final long startNanos;
    private final ScriptedServer server;

    public StallTarget(StallPattern pattern) throws IOException {
        this.pattern = pattern;
        this.startNanos = System.nanoTime();
        this.server = new ScriptedServer((index, in, out) -> serve(in, out));
    }

    public int port() {
        return server.port();
    }

    /** The instant the stall pattern counts from, on {@link System#nanoTime}'s clock. */
    public long startNanos() {
        return startNanos;
    }

    public StallPattern pattern() {
        return pattern;
    }

    /** Connections accepted so far. */
    public int accepted() {
        return server.accepted();
    }

    /** Errors of the serving threads, e.g. a malformed request. */
    public java.util.List<Throwable> failures() {
        return server.failures();
    }

    private void serve(InputStream in, OutputStream out) throws IOException, InterruptedException {
        while (true) {
            byte[] head = in.readNBytes(HEAD_BYTES);
            if (head.length < HEAD_BYTES) {
                return; // the client closed between requests (or mid-head): nothing to answer
            }
            int length = bodyLength(head);
            if (in.readNBytes(length).length < length) {
                throw new EOFException("connection closed inside a request body");
            }
            long releaseNanos = startNanos + pattern.releaseAtNs(System.nanoTime() - startNanos);
            for (long left = releaseNanos - System.nanoTime();
                    left > 0;
                    left = releaseNanos - System.nanoTime()) {
                Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            }
            out.write(RESPONSE);
            out.flush();
        }
    }

    private static int bodyLength(byte[] head) throws IOException {
        int length = 0;
        for (byte b : head) {
            if (b < '0' || b > '9') {
                throw new IOException(
                        "request head '"
                                + new String(head, StandardCharsets.US_ASCII)
                                + "' is not 8 digits");
            }
            length = length * 10 + (b - '0');
        }
        if (length > MAX_BODY_BYTES) {
            throw new IOException("request body of " + length + " bytes is too large");
        }
        return length;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
