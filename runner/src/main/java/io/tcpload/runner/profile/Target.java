package io.tcpload.runner.profile;

import java.util.Objects;

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

    /** {@code host:port}, with IPv6 literals in brackets. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
