package io.tcpload.runner.client;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Turns the target's host name into its addresses, all of them (a headless Service or round-robin
 * DNS has several). The engine asks again, off its event loops, as connections reopen, so that the
 * connections follow the addresses as they change.
 *
 * <p>Implementations may block, and must be thread-safe.
 */
@FunctionalInterface
public interface TargetResolver {
    /**
     * Every address of {@code host} (an IP literal gives itself), in the order of preference.
     *
     * @throws UnknownHostException when the name has no address
     */
    List<InetAddress> resolve(String host) throws UnknownHostException;

    /**
     * The JDK's resolver: the system's configuration ({@code /etc/hosts}, {@code resolv.conf}),
     * with the JDK's cache, which keeps an answer for 30 seconds whatever its TTL.
     */
    static TargetResolver system() {
        return host -> List.of(InetAddress.getAllByName(host));
    }
}
