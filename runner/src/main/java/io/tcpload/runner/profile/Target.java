package io.tcpload.runner.profile;

import java.util.Objects;
import java.util.Optional;

/**
 * Where the load goes: a host name, IPv4 or IPv6 literal (without brackets), and a TCP port in
 * 1..65535. Names are resolved when connections open, not here.
 */
public record Target(String host, int port) {
    public Target {
        Objects.requireNonNull(host, "host");
        if (host.isEmpty()) {
            throw new IllegalArgumentException("host is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 1..65535");
        }
    }

    /**
     * Why {@code host} is not a DNS name, an IPv4 or an IPv6 address (as {@code host} in {@code
     * [common]} is checked); empty when it is one.
     */
    public static Optional<String> hostProblem(String host) {
        return CommonSection.hostProblem(host);
    }

    /** {@code host:port}, with IPv6 literals in brackets. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
