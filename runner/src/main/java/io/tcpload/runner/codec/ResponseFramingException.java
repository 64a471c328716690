package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;

/**
 * A response that cannot be framed: a malformed or oversized length, status line, header or chunk,
 * or bytes after the one response a connection may carry. The message names the offending value.
 * The decoder that throws it discards everything afterwards; the connection is to be closed and
 * counted as a read error.
 */
public final class ResponseFramingException extends CorruptedFrameException {
    private static final long serialVersionUID = 1L;

    /** Longest excerpt of received bytes quoted in a message. */
    private static final int MAX_QUOTED_BYTES = 64;

    public ResponseFramingException(String message) {
        super(message);
    }

    /**
     * The bytes {@code [index, index + length)} of {@code buf} in single quotes, printable ASCII as
     * is and everything else as {@code \xNN}, cut after {@value #MAX_QUOTED_BYTES} bytes, so a
     * message stays one short line whatever the peer sent.
     */
    static String quote(ByteBuf buf, int index, int length) {
        int shown = Math.min(length, MAX_QUOTED_BYTES);
        StringBuilder sb = new StringBuilder(shown + 8).append('\'');
        for (int i = 0; i < shown; i++) {
            int b = buf.getByte(index + i) & 0xff;
            if (b >= 0x20 && b < 0x7f && b != '\\' && b != '\'') {
                sb.append((char) b);
            } else {
                sb.append(String.format("\\x%02x", b));
            }
        }
        sb.append('\'');
        if (shown < length) {
            sb.append("... (").append(length).append(" bytes)");
        }
        return sb.toString();
    }
}
