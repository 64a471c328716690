package io.tcpload.runner.client;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The addresses the connections of a run go to, in turn: every connection that opens takes the next
 * one, so that connections spread evenly over a name with several addresses. As connections reopen
 * the name is resolved again (at most once per {@link #REFRESH_INTERVAL_NS}, on a thread of its
 * own, never on an event loop), and the next connections go to the addresses of the latest answer;
 * an answer that fails or is empty keeps the last good one.
 *
 * <p>Only the addresses of the preferred family (that of the resolver's first address) are used, so
 * that a name with IPv4 and IPv6 addresses ({@code localhost}) is not spread onto a family the
 * target may not listen on. Each address seen gets a stable number ({@link Endpoint#id}), by which
 * the loops count what went to it; the address list is sorted so that the turn does not jump when a
 * resolver rotates its answers.
 *
 * <p>Thread-safe: {@link #next} is called by every event loop, without blocking or allocating.
 */
final class TargetAddresses implements AutoCloseable {
    /** How often, at most, the name is resolved again while connections reopen. */
    static final long REFRESH_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

    /** One address and its number in the run's address list. */
    record Endpoint(InetSocketAddress address, int id) {}

    private final String host;
    private final int port;
    private final TargetResolver resolver;
    private final ConcurrentHashMap<InetSocketAddress, Endpoint> known = new ConcurrentHashMap<>();
    private final List<String> names = new CopyOnWriteArrayList<>();
    private final AtomicLong turn;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final Runnable refresh = this::refresh;
    private volatile Endpoint[] current;
    private volatile long resolvedAtNs;
    private ExecutorService refresher;
    private boolean closed;

    private TargetAddresses(String host, int port, TargetResolver resolver, long firstTurn) {
        this.host = host;
        this.port = port;
        this.resolver = resolver;
        this.turn = new AtomicLong(firstTurn);
    }

    /** One address, resolved already, never resolved again. */
    static TargetAddresses fixed(InetSocketAddress address) {
        TargetAddresses addresses =
                new TargetAddresses(address.getHostString(), address.getPort(), null, 0);
        addresses.current = new Endpoint[] {addresses.endpoint(address)};
        return addresses;
    }

    /**
     * Resolves {@code host} now, on the calling thread.
     *
     * @param firstTurn the turn of the first connection (a distributed run's runners start at their
     *     own connections' offsets, so that together they spread over every address)
     * @throws UnknownHostException when the name has no address now
     */
    static TargetAddresses resolve(String host, int port, TargetResolver resolver, long firstTurn)
            throws UnknownHostException {
        TargetAddresses addresses = new TargetAddresses(host, port, resolver, firstTurn);
        Endpoint[] endpoints = addresses.endpoints(resolver.resolve(host));
        if (endpoints.length == 0) {
            throw new UnknownHostException(host);
        }
        addresses.current = endpoints;
        addresses.resolvedAtNs = System.nanoTime();
        return addresses;
    }

    /**
     * The address for a connection about to open: the next in turn. Asks for a new resolution when
     * the last one is older than the interval; that one serves later connections.
     */
    Endpoint next() {
        Endpoint[] now = current;
        Endpoint chosen = now[(int) Math.floorMod(turn.getAndIncrement(), (long) now.length)];
        if (resolver != null
                && System.nanoTime() - resolvedAtNs > REFRESH_INTERVAL_NS
                && refreshing.compareAndSet(false, true)) {
            startRefresh();
        }
        return chosen;
    }

    /** Every address seen so far, as {@code ip:port}, by {@link Endpoint#id}. */
    List<String> names() {
        return List.copyOf(names);
    }

    /** The addresses in use now, as {@code ip:port}. */
    List<String> currentNames() {
        List<String> list = new ArrayList<>();
        for (Endpoint endpoint : current) {
            list.add(names.get(endpoint.id()));
        }
        return list;
    }

    /** Stops resolving; a resolution under way is interrupted. */
    @Override
    public synchronized void close() {
        closed = true;
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }

    private synchronized void startRefresh() {
        if (closed) {
            return;
        }
        if (refresher == null) {
            refresher =
                    Executors.newSingleThreadExecutor(
                            task -> {
                                Thread thread = new Thread(task, "tcpload-resolve");
                                thread.setDaemon(true);
                                return thread;
                            });
        }
        refresher.execute(refresh);
    }

    private void refresh() {
        try {
            Endpoint[] endpoints = endpoints(resolver.resolve(host));
            if (endpoints.length > 0) {
                current = endpoints;
            }
        } catch (UnknownHostException | RuntimeException e) {
            // The name is gone for now (a Service being recreated): the last answer stays.
        } finally {
            resolvedAtNs = System.nanoTime();
            refreshing.set(false);
        }
    }

    /** The addresses of the preferred family, sorted, each with its number. */
    private Endpoint[] endpoints(List<InetAddress> addresses) {
        if (addresses.isEmpty()) {
            return new Endpoint[0];
        }
        boolean ipv4 = addresses.get(0) instanceof Inet4Address;
        List<InetSocketAddress> chosen = new ArrayList<>();
        for (InetAddress address : addresses) {
            InetSocketAddress socketAddress = new InetSocketAddress(address, port);
            if ((address instanceof Inet4Address) == ipv4 && !chosen.contains(socketAddress)) {
                chosen.add(socketAddress);
            }
        }
        chosen.sort(
                (a, b) -> Arrays.compare(a.getAddress().getAddress(), b.getAddress().getAddress()));
        Endpoint[] endpoints = new Endpoint[chosen.size()];
        for (int i = 0; i < endpoints.length; i++) {
            endpoints[i] = endpoint(chosen.get(i));
        }
        return endpoints;
    }

    private synchronized Endpoint endpoint(InetSocketAddress address) {
        Endpoint existing = known.get(address);
        if (existing != null) {
            return existing;
        }
        Endpoint created = new Endpoint(address, names.size());
        names.add(name(address));
        known.put(address, created);
        return created;
    }

    /** {@code 10.0.0.7:8080}, {@code [fd00::7]:8080}. */
    static String name(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        String text = ip == null ? address.getHostString() : ip.getHostAddress();
        return (text.indexOf(':') >= 0 ? "[" + text + "]" : text) + ":" + address.getPort();
    }
}
