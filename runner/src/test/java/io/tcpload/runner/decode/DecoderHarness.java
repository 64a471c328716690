package io.tcpload.runner.decode;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tcpload.runner.codec.ResponseOutcome;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Drives a response decoder on an {@link EmbeddedChannel}. */
final class DecoderHarness {
    private DecoderHarness() {}

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }

    /** {@code bytes} cut at the given ascending offsets. */
    static List<byte[]> splitAt(byte[] bytes, int... offsets) {
        List<byte[]> pieces = new ArrayList<>();
        int from = 0;
        for (int offset : offsets) {
            pieces.add(Arrays.copyOfRange(bytes, from, offset));
            from = offset;
        }
        pieces.add(Arrays.copyOfRange(bytes, from, bytes.length));
        return pieces;
    }

    static List<byte[]> oneByteAtATime(byte[] bytes) {
        List<byte[]> pieces = new ArrayList<>();
        for (byte b : bytes) {
            pieces.add(new byte[] {b});
        }
        return pieces;
    }

    /** Writes the pieces in order, closes the channel if asked, and returns what was fired. */
    static List<ResponseOutcome> run(ChannelHandler decoder, List<byte[]> pieces, boolean close) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        for (byte[] piece : pieces) {
            ch.writeInbound(Unpooled.wrappedBuffer(piece));
        }
        if (close) {
            ch.finish();
        }
        return drain(ch);
    }

    static List<ResponseOutcome> drain(EmbeddedChannel ch) {
        List<ResponseOutcome> outcomes = new ArrayList<>();
        for (Object o; (o = ch.readInbound()) != null; ) {
            outcomes.add((ResponseOutcome) o);
        }
        return outcomes;
    }

    /** An allocator that remembers the largest buffer anyone asked it for. */
    static final class MeasuringAllocator extends AbstractByteBufAllocator {
        final AtomicInteger largestRequest = new AtomicInteger();

        MeasuringAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            largestRequest.accumulateAndGet(initialCapacity, Math::max);
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    static EmbeddedChannel channel(ChannelHandler decoder, ByteBufAllocator alloc) {
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.config().setAllocator(alloc);
        return ch;
    }
}
