package io.tcpload.runner.client;

import io.netty.channel.ChannelFactory;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringAdaptiveBufferRingAllocator;
import io.netty.channel.uring.IoUringBufferRingConfig;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.tcpload.runner.contract.RunnerInvocation;
import java.util.Locale;

/**
 * A Netty I/O transport: native io_uring where the kernel allows it, else native epoll, else NIO.
 * Containers often forbid io_uring through their seccomp profile, so availability is probed, never
 * assumed.
 *
 * @param name {@code io_uring}, {@code epoll} or {@code nio}, as reported to users
 * @param ioHandlerFactory the factory for event loops of this transport
 * @param socketChannels makes client channels: a constructor called directly, not through
 *     reflection (it runs once per connection, and short connections make many)
 * @param serverChannel the server channel class
 * @param readBufferRing whether client channels read into the event loop's ring of buffers ({@link
 *     #READ_BUFFER_GROUP}, io_uring only)
 */
public record Transport(
        String name,
        IoHandlerFactory ioHandlerFactory,
        ChannelFactory<? extends SocketChannel> socketChannels,
        Class<? extends ServerSocketChannel> serverChannel,
        boolean readBufferRing) {

    /** The id of each io_uring event loop's ring of read buffers. */
    public static final short READ_BUFFER_GROUP = 1;

    /**
     * The most entries of that ring. Netty puts a new buffer in for each one a read takes, so a
     * connection holding a response cut short does not drain it; the ring starts with a batch of 64
     * and grows towards this only when reads come faster than it refills (a burst across many
     * connections); should even this run out, the read is tried again.
     */
    private static final short READ_RING_ENTRIES = 16384;

    /** The transports users may ask for with {@code --transport}. */
    public static final String CHOICES = String.join(", ", RunnerInvocation.TRANSPORTS);

    /**
     * Picks a transport.
     *
     * @param preference {@code auto} for the best available, or one name of {@link #CHOICES}
     * @throws IllegalArgumentException if the named transport is unknown or not available here,
     *     with the reason
     */
    public static Transport select(String preference) {
        String wanted = preference.toLowerCase(Locale.ROOT);
        switch (wanted) {
            case "auto":
                if (IoUring.isAvailable()) {
                    return ioUring();
                }
                return Epoll.isAvailable() ? epoll() : nio();
            case "io_uring":
            case "iouring":
                if (!IoUring.isAvailable()) {
                    throw new IllegalArgumentException(
                            "io_uring is not available here: " + IoUring.unavailabilityCause());
                }
                return ioUring();
            case "epoll":
                if (!Epoll.isAvailable()) {
                    throw new IllegalArgumentException(
                            "epoll is not available here: " + Epoll.unavailabilityCause());
                }
                return epoll();
            case "nio":
                return nio();
            default:
                throw new IllegalArgumentException(
                        "unknown transport '" + preference + "'; choose one of " + CHOICES);
        }
    }

    /**
     * With a kernel that has provided-buffer rings and multishot receive (Linux 6.0 or later), a
     * connection arms one receive that lasts, and the kernel picks a buffer of the loop's ring for
     * each read: no poll and no new receive per response, which took about a twelfth of the event
     * loop's samples in a keep-alive run (docs/benchmarks.md). Without them, or with {@code
     * -Dio.netty.iouring.recvMultiShotEnabled=false}, each read is armed on its own.
     */
    private static Transport ioUring() {
        boolean ring = IoUring.isRegisterBufferRingSupported() && IoUring.isRecvMultishotEnabled();
        IoHandlerFactory factory =
                ring
                        ? IoUringIoHandler.newFactory(
                                new IoUringIoHandlerConfig()
                                        .setBufferRingConfig(
                                                IoUringBufferRingConfig.builder()
                                                        .bufferGroupId(READ_BUFFER_GROUP)
                                                        .bufferRingSize(READ_RING_ENTRIES)
                                                        .batchSize(64)
                                                        .allocator(
                                                                new IoUringAdaptiveBufferRingAllocator())
                                                        .build()))
                        : IoUringIoHandler.newFactory();
        return new Transport(
                "io_uring",
                factory,
                IoUringSocketChannel::new,
                IoUringServerSocketChannel.class,
                ring);
    }

    private static Transport epoll() {
        return new Transport(
                "epoll",
                EpollIoHandler.newFactory(),
                EpollSocketChannel::new,
                EpollServerSocketChannel.class,
                false);
    }

    private static Transport nio() {
        return new Transport(
                "nio",
                NioIoHandler.newFactory(),
                NioSocketChannel::new,
                NioServerSocketChannel.class,
                false);
    }
}
