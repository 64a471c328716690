package io.tcpload.runner.client;

import io.netty.channel.EventLoop;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.unix.Buffer;
import io.netty.channel.uring.IoUringIoEvent;
import io.netty.channel.uring.IoUringIoHandle;
import io.netty.channel.uring.IoUringIoOps;
import io.netty.util.concurrent.Future;
import io.tcpload.runner.tls.ClientTls;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A slot's place on an io_uring event loop for connections without Netty's channels: it registers
 * once, and every connection of the slot ({@link RingLink}) submits its operations through it and
 * gets their completions back, told apart by a generation number in each operation's data. A
 * channel costs user time on every request (the pipeline, its buffers and promises) and more on
 * every connection (registration, the pipeline's set-up, a close future); a load client needs none
 * of it, and on short connections it cost more than the kernel's own work.
 *
 * <p>Threading: confined to the slot's event loop.
 */
final class RingSocket implements IoUringIoHandle {
    private static final short AF_INET = 2;
    private static final short AF_INET6 = 10;
    private static final int SOCKADDR_IN_BYTES = 16;
    private static final int SOCKADDR_IN6_BYTES = 28;

    private final ConnectionSlot slot;
    private final LoopWorker worker;

    /** Null if the loop refused the registration: nothing can be submitted then. */
    private final IoRegistration registration;

    /** The slot's connections that are open or still have operations in the ring. */
    private final List<RingLink> live = new ArrayList<>(2);

    private short generation;

    /**
     * The address a connect goes to, in the kernel's layout ({@code sockaddr_in} or {@code
     * sockaddr_in6}). One connect at a time is the slot's, and the kernel copies it as it takes the
     * operation.
     */
    private final ByteBuffer sockaddr =
            ByteBuffer.allocateDirect(SOCKADDR_IN6_BYTES).order(ByteOrder.nativeOrder());

    private final long sockaddrAddress = Buffer.memoryAddress(sockaddr);

    /** The address laid out in {@link #sockaddr}, and its length: most connects repeat it. */
    private InetSocketAddress laidOut;

    private int laidOutBytes;

    RingSocket(ConnectionSlot slot, LoopWorker worker) {
        this.slot = slot;
        this.worker = worker;
        // Made by the slot's first connect, on the loop's own thread, where a registration
        // completes at once.
        Future<IoRegistration> registering = ((IoEventLoop) worker.loop()).register(this);
        registration = registering.isSuccess() ? registering.getNow() : null;
    }

    ConnectionSlot slot() {
        return slot;
    }

    /** The run's TLS, or null when it speaks plain TCP. */
    ClientTls tls() {
        return worker.tls();
    }

    EventLoop loop() {
        return worker.loop();
    }

    /** A new connection of the slot, not yet open. */
    RingLink newLink() {
        RingLink link = new RingLink(this, ++generation);
        live.add(link);
        return link;
    }

    /** The socket family of {@code address}: AF_INET or AF_INET6. */
    static int family(InetSocketAddress address) {
        return address.getAddress() instanceof Inet6Address ? AF_INET6 : AF_INET;
    }

    /**
     * Lays {@code address} out for a connect.
     *
     * @return its length in bytes; the layout is at {@link #sockaddrAddress()}
     */
    int sockaddr(InetSocketAddress address) {
        if (address.equals(laidOut)) {
            return laidOutBytes;
        }
        laidOut = address;
        laidOutBytes = layOut(address);
        return laidOutBytes;
    }

    private int layOut(InetSocketAddress address) {
        for (int i = 0; i < SOCKADDR_IN6_BYTES; i++) {
            sockaddr.put(i, (byte) 0);
        }
        int port = address.getPort();
        // The port in network byte order whatever the machine's.
        sockaddr.put(2, (byte) (port >>> 8));
        sockaddr.put(3, (byte) port);
        byte[] ip = address.getAddress().getAddress();
        if (address.getAddress() instanceof Inet6Address v6) {
            sockaddr.putShort(0, AF_INET6);
            sockaddr.put(8, ip);
            sockaddr.putInt(24, v6.getScopeId());
            return SOCKADDR_IN6_BYTES;
        }
        sockaddr.putShort(0, AF_INET);
        sockaddr.put(4, ip);
        return SOCKADDR_IN_BYTES;
    }

    long sockaddrAddress() {
        return sockaddrAddress;
    }

    /** Whether operations can be submitted. */
    boolean usable() {
        return registration != null && registration.isValid();
    }

    /** Submits {@code op} for a connection, counting it until its completion comes back. */
    void submit(IoUringIoOps op) {
        registration.submit(op);
        worker.ringOpSubmitted();
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        IoUringIoEvent completion = (IoUringIoEvent) event;
        short data = completion.data();
        for (int i = 0; i < live.size(); i++) {
            RingLink link = live.get(i);
            if (link.generation() == data) {
                link.complete(completion.opcode(), completion.res());
                break;
            }
        }
        // Counted back last: what the completion submitted in turn (the close of a socket made
        // after its connection was let go of) keeps the loop's drain waiting for it.
        worker.ringOpDone();
    }

    /** {@code link} is closed and has nothing left in the ring. */
    void forget(RingLink link) {
        live.remove(link);
    }

    /** The run is over and every operation has come back: the registration goes. */
    void unregister() {
        if (registration != null) {
            registration.cancel();
        }
    }

    @Override
    public void close() {
        // The loop is going away: sockets still open are closed with it.
        for (RingLink link : List.copyOf(live)) {
            link.closeNow();
        }
    }
}
