package io.tcpload.runner.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;

/** A connection on a Netty channel, whose pipeline ends in the slot that owns it. */
record ChannelLink(Channel channel) implements Link {
    @Override
    public boolean isWritable() {
        return channel.isWritable();
    }

    @Override
    public void write(ByteBuf request) {
        // A void promise creates nothing per request; a failed write arrives in exceptionCaught.
        channel.writeAndFlush(request, channel.voidPromise());
    }

    @Override
    public ByteBufAllocator alloc() {
        return channel.alloc();
    }

    @Override
    public void close() {
        channel.close();
    }
}
