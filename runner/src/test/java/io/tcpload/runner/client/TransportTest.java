package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.uring.IoUring;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the engine takes from each transport's channels without asking for it. */
class TransportTest {

    /**
     * Requests are small writes answered at once: Nagle's algorithm would hold each behind the
     * previous answer's delayed ACK. {@link LoopWorker#newChannel} relies on the channel coming
     * with TCP_NODELAY on, as every Netty transport makes it, rather than paying a second
     * setsockopt.
     */
    @Test
    void everyTransportsConnectionsHaveNoDelayOn() throws Exception {
        List<String> names = new ArrayList<>(List.of("nio"));
        if (Epoll.isAvailable()) {
            names.add("epoll");
        }
        if (IoUring.isAvailable()) {
            names.add("io_uring");
        }
        try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            for (String name : names) {
                Transport transport = Transport.select(name);
                MultiThreadIoEventLoopGroup group =
                        new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
                try {
                    SocketChannel channel = transport.socketChannels().newChannel();
                    group.next().register(channel).sync();
                    channel.connect(new InetSocketAddress("127.0.0.1", server.getLocalPort()))
                            .await(5, TimeUnit.SECONDS);
                    try (Socket accepted = server.accept()) {
                        assertThat(channel.isActive()).as(name).isTrue();
                        assertThat(channel.config().isTcpNoDelay()).as(name).isTrue();
                    } finally {
                        channel.close().await(5, TimeUnit.SECONDS);
                    }
                } finally {
                    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
                }
            }
        }
    }
}
