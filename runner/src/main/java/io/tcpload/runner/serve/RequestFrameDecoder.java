package io.tcpload.runner.serve;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Splits a raw TCP byte stream into requests with a {@link RequestFramer}, emitting {@link
 * #REQUEST} for each whole request and dropping its bytes (the demo server answers without looking
 * at them). Bytes that cannot be a request, or more than {@code maxRequestBytes} waiting, raise a
 * decoder exception, which closes the connection.
 *
 * <p>One instance per connection; used only on its event loop.
 */
final class RequestFrameDecoder extends ByteToMessageDecoder {

    /** The message passed on for every complete request. */
    static final Object REQUEST = new Object();

    private final RequestFramer framer;
    private final int maxRequestBytes;

    /** The size of the request being received, once its head has shown it. */
    private int expectedBytes = RequestFramer.NEED_MORE;

    /**
     * Whether each request's bytes are passed on (a retained slice) instead of {@link #REQUEST}.
     */
    private final boolean keepBytes;

    RequestFrameDecoder(RequestFramer framer, int maxRequestBytes) {
        this(framer, maxRequestBytes, false);
    }

    RequestFrameDecoder(RequestFramer framer, int maxRequestBytes, boolean keepBytes) {
        this.framer = framer;
        this.maxRequestBytes = maxRequestBytes;
        this.keepBytes = keepBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out)
            throws Exception {
        if (expectedBytes == RequestFramer.NEED_MORE) {
            try {
                expectedBytes = framer.requestLength(new ByteBufChars(in));
            } catch (MalformedRequestException e) {
                throw new CorruptedFrameException(e.getMessage());
            }
            if (expectedBytes == RequestFramer.NEED_MORE) {
                if (in.readableBytes() > maxRequestBytes) {
                    throw new TooLongFrameException(
                            "more than " + maxRequestBytes + " bytes without a whole request");
                }
                return;
            }
        }
        if (in.readableBytes() >= expectedBytes) {
            int size = expectedBytes;
            expectedBytes = RequestFramer.NEED_MORE;
            if (keepBytes) {
                out.add(in.readRetainedSlice(size));
            } else {
                in.skipBytes(size);
                out.add(REQUEST);
            }
        }
    }

    /** The readable bytes of a buffer seen as ISO-8859-1 text, without copying. */
    private static final class ByteBufChars implements CharSequence {
        private final ByteBuf buf;
        private final int from;
        private final int length;

        ByteBufChars(ByteBuf buf) {
            this(buf, buf.readerIndex(), buf.readableBytes());
        }

        private ByteBufChars(ByteBuf buf, int from, int length) {
            this.buf = buf;
            this.from = from;
            this.length = length;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return (char) buf.getUnsignedByte(from + index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new ByteBufChars(buf, from + start, end - start);
        }

        @Override
        public String toString() {
            return buf.toString(from, length, java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }
}
