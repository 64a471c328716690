package io.tcpload.runner.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * One connection as a {@link ConnectionSlot} drives it: a Netty channel ({@link ChannelLink}), or
 * on io_uring a bare socket ({@link RingLink}). Each connection is a new link, so a slot tells the
 * events of its current connection from late ones of a connection it let go of by the link's
 * identity.
 *
 * <p>Threading: used on the slot's event loop only.
 */
interface Link {
    /** Whether a request written now would not queue past the connection's high-water mark. */
    boolean isWritable();

    /**
     * Writes and flushes {@code request}, taking it over; a failure comes back as an error event of
     * the link.
     */
    void write(ByteBuf request);

    /** The allocator for requests written on this link. */
    ByteBufAllocator alloc();

    /** Closes the connection; nothing it does later is the slot's. */
    void close();
}
