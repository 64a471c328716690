package io.tcpload.runner.testing;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A name server on 127.0.0.1 (UDP, port 0) that knows one name: it answers its A query with the
 * addresses set last, with a TTL of one second, so that a test can move the name's addresses while
 * a run goes on; any other type of that name has no record, and any other name does not exist.
 */
public final class LoopbackDns implements AutoCloseable {
    /** The TTL of every answer, in seconds. */
    public static final int TTL_SECONDS = 1;

    private final String name;
    private final AtomicReference<List<InetAddress>> addresses;
    private final AtomicInteger queries = new AtomicInteger();
    private final EventLoopGroup group;
    private final Channel channel;

    private LoopbackDns(String name, List<InetAddress> initial) throws InterruptedException {
        this.name = absolute(name);
        this.addresses = new AtomicReference<>(List.copyOf(initial));
        this.group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        this.channel =
                new Bootstrap()
                        .group(group)
                        .channel(NioDatagramChannel.class)
                        .handler(
                                new ChannelInitializer<NioDatagramChannel>() {
                                    @Override
                                    protected void initChannel(NioDatagramChannel ch) {
                                        ch.pipeline()
                                                .addLast(
                                                        new DatagramDnsQueryDecoder(),
                                                        new DatagramDnsResponseEncoder(),
                                                        new Answerer());
                                    }
                                })
                        .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .sync()
                        .channel();
    }

    /** Starts a server that resolves {@code name} to {@code initial}. */
    public static LoopbackDns start(String name, List<InetAddress> initial)
            throws InterruptedException {
        return new LoopbackDns(name, initial);
    }

    /** Where to ask. */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** From now on the name resolves to {@code newAddresses} (IPv4 only). */
    public void answer(List<InetAddress> newAddresses) {
        addresses.set(List.copyOf(newAddresses));
    }

    /** Queries of the name answered so far. */
    public int queries() {
        return queries.get();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5_000);
    }

    private static String absolute(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower : lower + ".";
    }

    private final class Answerer extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            DatagramDnsResponse response =
                    new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setRecursionAvailable(true);
            if (question == null || !absolute(question.name()).equals(name)) {
                response.setCode(DnsResponseCode.NXDOMAIN);
                if (question != null) {
                    response.addRecord(DnsSection.QUESTION, question);
                }
                ctx.writeAndFlush(response);
                return;
            }
            response.addRecord(DnsSection.QUESTION, question);
            if (question.type() == DnsRecordType.A) {
                queries.incrementAndGet();
                for (InetAddress address : addresses.get()) {
                    if (address instanceof Inet4Address) {
                        response.addRecord(
                                DnsSection.ANSWER,
                                new DefaultDnsRawRecord(
                                        question.name(),
                                        DnsRecordType.A,
                                        TTL_SECONDS,
                                        Unpooled.wrappedBuffer(address.getAddress())));
                    }
                }
            }
            ctx.writeAndFlush(response);
        }
    }
}
