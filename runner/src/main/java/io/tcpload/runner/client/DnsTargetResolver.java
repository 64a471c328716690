package io.tcpload.runner.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A {@link TargetResolver} that asks DNS itself and keeps each answer for its TTL, no longer: in
 * Kubernetes, where a headless Service's records live 5 seconds, connections follow pods that come
 * and go within seconds, where the JDK's resolver would hold an answer for 30. The hosts file is
 * read first; name servers, search domains and {@code ndots} come from {@code /etc/resolv.conf}.
 *
 * <p>Thread-safe; owns one small event loop, released by {@link #close}.
 */
public final class DnsTargetResolver implements TargetResolver, AutoCloseable {
    private static final Path RESOLV_CONF = Path.of("/etc/resolv.conf");

    /** How long one resolution may take before it fails. */
    private static final long RESOLVE_TIMEOUT_MS = 5_000;

    private final EventLoopGroup group;
    private final DnsNameResolver resolver;

    private DnsTargetResolver(DnsServerAddressStreamProvider nameServers) {
        this.group =
                new MultiThreadIoEventLoopGroup(
                        1,
                        new DefaultThreadFactory("tcpload-dns", true),
                        NioIoHandler.newFactory());
        this.resolver =
                new DnsNameResolverBuilder(group.next())
                        .datagramChannelType(NioDatagramChannel.class)
                        .nameServerProvider(nameServers)
                        .queryTimeoutMillis(RESOLVE_TIMEOUT_MS)
                        .build();
    }

    /** Asks the system's name servers (those of {@code /etc/resolv.conf}). */
    public static DnsTargetResolver create() {
        return new DnsTargetResolver(DnsServerAddressStreamProviders.platformDefault());
    }

    /**
     * {@link #create}, when {@code /etc/resolv.conf} names a name server: without one Netty would
     * fall back to public name servers, and a load tool must never send anything, not even a DNS
     * query, where the machine's own configuration does not point it.
     */
    public static Optional<DnsTargetResolver> fromResolvConf() {
        try (Stream<String> lines = Files.lines(RESOLV_CONF)) {
            boolean named =
                    lines.map(String::strip)
                            .anyMatch(
                                    line ->
                                            line.startsWith("nameserver ")
                                                    || line.startsWith("nameserver\t"));
            return named ? Optional.of(create()) : Optional.empty();
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
    }

    /** Asks the one name server at {@code nameServer}; for tests with a server of their own. */
    public static DnsTargetResolver using(InetSocketAddress nameServer) {
        return new DnsTargetResolver(new SingletonDnsServerAddressStreamProvider(nameServer));
    }

    @Override
    public List<InetAddress> resolve(String host) throws UnknownHostException {
        try {
            List<InetAddress> addresses =
                    resolver.resolveAll(host).get(2 * RESOLVE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (addresses.isEmpty()) {
                throw new UnknownHostException(host);
            }
            return List.copyOf(addresses);
        } catch (ExecutionException e) {
            UnknownHostException unknown = new UnknownHostException(host);
            unknown.initCause(e.getCause());
            throw unknown;
        } catch (TimeoutException e) {
            throw new UnknownHostException(host + ": no answer in time");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UnknownHostException(host + ": interrupted");
        }
    }

    @Override
    public void close() {
        resolver.close();
        group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5_000);
    }
}
