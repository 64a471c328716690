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
import io.netty.channel.uring.IoUringIoHandler;
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
 * @param bareSockets whether connections bypass Netty's channels and drive their sockets through
 *     the loop's ring ({@link RingLink})
 * @param ioHandlerFactory the factory for event loops of this transport
 * @param socketChannels makes client channels: a constructor called directly, not through
 *     reflection (it runs once per connection, and short connections make many)
 * @param serverChannel the server channel class
 */
public record Transport(
        String name,
        boolean bareSockets,
        IoHandlerFactory ioHandlerFactory,
        ChannelFactory<? extends SocketChannel> socketChannels,
        Class<? extends ServerSocketChannel> serverChannel) {

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
     * Each read is armed on its own (a poll, then a receive), not as one multishot receive into a
     * ring of provided buffers. The ring spared a submission and a completion a response, but a
     * server that sends without a pause (megabytes a response) then kept the loop draining
     * completions for seconds on end, away from its timers: no per-second figures, timeouts
     * unchecked, the run stopping seconds late (FloodingServerTest). Side by side the ring made no
     * difference in keep-alive or short-connection runs that stood out of the noise
     * (docs/benchmarks.md).
     */
    private static Transport ioUring() {
        return new Transport(
                "io_uring",
                // Bare sockets need kernel 5.19 (a socket made in the ring, a receive that waits
                // for data first). Buffer rings came in the same release, and Netty finds out
                // whether the kernel has them by trying: older kernels get channels.
                IoUring.isRegisterBufferRingSupported(),
                IoUringIoHandler.newFactory(),
                IoUringSocketChannel::new,
                IoUringServerSocketChannel.class);
    }

    private static Transport epoll() {
        return new Transport(
                "epoll",
                false,
                EpollIoHandler.newFactory(),
                EpollSocketChannel::new,
                EpollServerSocketChannel.class);
    }

    private static Transport nio() {
        return new Transport(
                "nio",
                false,
                NioIoHandler.newFactory(),
                NioSocketChannel::new,
                NioServerSocketChannel.class);
    }
}
