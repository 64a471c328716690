package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileException;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import io.tcpload.runner.testing.TinyExchange;
import io.tcpload.runner.tls.ClientTls;
import io.tcpload.runner.tls.TlsProvider;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On io_uring, connections bypass Netty's channels ({@link RingLink}, with {@link RingTls} for
 * TLS); on epoll and NIO they are channels. Both paths count one exchange alike, with TLS and
 * without, and the bare one returns every buffer it takes.
 */
class BareSocketsTest {

    @Test
    void onlyIoUringConnectsWithBareSockets() {
        assertThat(Transport.select("nio").bareSockets()).isFalse();
        if (Epoll.isAvailable()) {
            assertThat(Transport.select("epoll").bareSockets()).isFalse();
        }
        if (IoUring.isAvailable()) {
            // From kernel 5.19, which Netty tells by its buffer rings.
            assertThat(Transport.select("io_uring").bareSockets())
                    .isEqualTo(IoUring.isRegisterBufferRingSupported());
        }
    }

    @Test
    void bareSocketsAndChannelsCountAlike() throws Exception {
        assumeTrue(bareSocketsHere(), "bare sockets need io_uring on Linux 5.19 or newer");
        List<String> transports = new ArrayList<>(List.of("io_uring", "nio"));
        if (Epoll.isAvailable()) {
            transports.add("epoll");
        }
        try (ScriptedServer server = new ScriptedServer(TinyExchange.answersEach())) {
            for (String name : transports) {
                for (int pipeline : new int[] {1, 16}) {
                    for (boolean keepAlive : new boolean[] {true, false}) {
                        if (pipeline > 1 && !keepAlive) {
                            continue;
                        }
                        String run =
                                name + (keepAlive ? " keep-alive" : " short") + " x" + pipeline;
                        RunSummary summary =
                                EngineRun.run(
                                        TinyExchange.profile(server.port(), keepAlive),
                                        new LoadConfig(1, 4, 600, 2_000, keepAlive, pipeline, 0),
                                        Transport.select(name));
                        Counts counts = summary.counts();
                        assertThat(counts.requests()).as(run).isGreaterThan(50);
                        assertThat(counts.successes()).as(run).isEqualTo(counts.requests());
                        assertThat(
                                        counts.connectErrors()
                                                + counts.readErrors()
                                                + counts.writeErrors()
                                                + counts.timeouts()
                                                + counts.retried())
                                .as(run)
                                .isZero();
                        // Every response counted was read whole; at most one a request in
                        // flight at the end had begun to arrive.
                        long responseBytes = TinyExchange.RESPONSE.length;
                        assertThat(counts.bytesRead())
                                .as(run)
                                .isBetween(
                                        counts.requests() * responseBytes,
                                        (counts.requests() + 4L * pipeline) * responseBytes);
                        assertThat(counts.bytesWritten())
                                .as(run)
                                .isBetween(
                                        counts.requests() * TinyExchange.REQUEST.length,
                                        (counts.requests() + 4L * pipeline)
                                                * TinyExchange.REQUEST.length);
                    }
                }
            }
            assertThat(server.failures()).isEmpty();
        }
    }

    /**
     * Receive buffers, gathered requests and the requests themselves come from the pooled
     * allocator: each is released once the kernel is done with it, so that once the loops have
     * ended (and their threads' caches with them) the pool holds no more of them than before.
     */
    @Test
    void bareSocketsReturnEveryBuffer() throws Exception {
        assumeTrue(bareSocketsHere(), "bare sockets need io_uring on Linux 5.19 or newer");
        try (ScriptedServer server = new ScriptedServer(TinyExchange.answersEach())) {
            long before = activeDirectAllocations();
            for (boolean keepAlive : new boolean[] {true, false}) {
                EngineRun.run(
                        TinyExchange.profile(server.port(), keepAlive),
                        new LoadConfig(2, 8, 400, 2_000, keepAlive, keepAlive ? 8 : 1, 0),
                        Transport.select("io_uring"));
            }
            assertThat(activeDirectAllocations()).isEqualTo(before);
        }
    }

    /**
     * Over TLS, against the demo target's TLS with a certificate made at start: the same counts on
     * bare sockets as on channels, one handshake per connection, each timed, and no error.
     */
    @Test
    void bareSocketsAndChannelsCountAlikeOverTls() throws Exception {
        assumeTrue(bareSocketsHere(), "bare sockets need io_uring on Linux 5.19 or newer");
        try (DemoServer server = DemoServer.start(tlsProfile(1, true), ServeOptions.defaults())) {
            for (String name : List.of("io_uring", "nio")) {
                for (boolean keepAlive : new boolean[] {true, false}) {
                    String run = name + (keepAlive ? " keep-alive" : " short");
                    RunSummary summary =
                            runOverTls(
                                    tlsProfile(server.port(), keepAlive),
                                    new LoadConfig(1, 4, 800, 5_000, keepAlive, 1, 0),
                                    Transport.select(name));
                    Counts counts = summary.counts();
                    assertThat(counts.requests()).as(run).isGreaterThan(keepAlive ? 50 : 10);
                    assertThat(counts.successes()).as(run).isEqualTo(counts.requests());
                    assertThat(counts.errors()).as(run).isZero();
                    long handshakes = summary.handshakeUs().getTotalCount();
                    if (keepAlive) {
                        assertThat(handshakes).as(run).isEqualTo(4);
                    } else {
                        // One a request; the last of each connection may be cut by the end.
                        assertThat(handshakes)
                                .as(run)
                                .isBetween(counts.requests(), counts.requests() + 4);
                    }
                    assertThat(summary.handshakeUs().getMinValue()).as(run).isPositive();
                }
            }
        }
    }

    /** As {@link #bareSocketsReturnEveryBuffer}, over TLS: records and plaintext buffers too. */
    @Test
    void bareSocketsOverTlsReturnEveryBuffer() throws Exception {
        assumeTrue(bareSocketsHere(), "bare sockets need io_uring on Linux 5.19 or newer");
        try (DemoServer server = DemoServer.start(tlsProfile(1, true), ServeOptions.defaults())) {
            long before = activeDirectAllocations();
            for (boolean keepAlive : new boolean[] {true, false}) {
                RunSummary summary =
                        runOverTls(
                                tlsProfile(server.port(), keepAlive),
                                new LoadConfig(2, 8, 400, 5_000, keepAlive, keepAlive ? 8 : 1, 0),
                                Transport.select("io_uring"));
                assertThat(summary.counts().successes()).isPositive();
            }
            assertThat(activeDirectAllocations()).isEqualTo(before);
        }
    }

    private static RunSummary runOverTls(Profile profile, LoadConfig config, Transport transport)
            throws Exception {
        try (ClientTls tls =
                ClientTls.build(
                        profile.tls().orElseThrow(),
                        profile.target().host(),
                        false,
                        TlsProvider.AUTO,
                        name -> null)) {
            return EngineRun.run(profile, config, transport, tls);
        }
    }

    /** A profile over TLS that takes any certificate (the demo target's is made at start). */
    private static Profile tlsProfile(int port, boolean keepAlive) throws ProfileException {
        return ProfileLoader.parse(
                        "[common]\nhost = 127.0.0.1\nport = "
                                + port
                                + "\ntls = true\ntls_verify = false\nkeepalive = "
                                + keepAlive
                                + "\n[request]\nreq_body = this is a test\n",
                        null)
                .profile();
    }

    private static boolean bareSocketsHere() {
        return IoUring.isAvailable() && Transport.select("io_uring").bareSockets();
    }

    private static long activeDirectAllocations() {
        long active = 0;
        for (PoolArenaMetric arena : PooledByteBufAllocator.DEFAULT.metric().directArenas()) {
            active += arena.numActiveAllocations();
        }
        return active;
    }
}
