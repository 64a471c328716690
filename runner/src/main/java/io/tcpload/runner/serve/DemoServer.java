package io.tcpload.runner.serve;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tcpload.runner.client.Transport;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.TlsSpec;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import io.tcpload.runner.tls.KeyMaterial;
import io.tcpload.runner.tls.SelfSigned;
import io.tcpload.runner.tls.ServerTls;
import io.tcpload.runner.tls.TlsSetupException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A server that answers every request of a profile with a valid response: the success response, or
 * the failure response at the configured rate, after the configured delay. For tests, for the
 * quickstart, and for dry-running a profile before pointing it at a real service.
 *
 * <p>Raw TCP requests are framed by a {@link RequestFramer} built from the profile's templates;
 * HTTP requests by HTTP/1.1. A connection may carry one request or many, pipelined or not; the
 * server never closes a raw TCP connection first, and closes an HTTP one only when the client asks.
 * Connections that send bytes that cannot be a request, or more than {@value #MAX_REQUEST_BYTES}
 * bytes for one request, are closed (reported on stderr, at most once a second).
 *
 * <p>Threading: {@link #start} and {@link #close} may be called from any thread, the other
 * accessors too. The server runs on {@code threads} event loops of its own (native epoll when
 * available, otherwise NIO); {@link #close} returns after they have all ended.
 */
public final class DemoServer implements AutoCloseable {

    /** The largest request accepted; larger ones close the connection. */
    public static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    private static final long PROBLEM_REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long CLOSE_TIMEOUT_MS = 10_000;

    private final EventLoopGroup group;
    private final List<Thread> threads;
    private final Channel serverChannel;
    private final ResponseBuffers responses;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final SslContext tls;
    private final SelfSigned generated;

    private DemoServer(
            EventLoopGroup group,
            List<Thread> threads,
            Channel serverChannel,
            ResponseBuffers responses,
            SslContext tls,
            SelfSigned generated) {
        this.tls = tls;
        this.generated = generated;
        this.group = group;
        this.threads = threads;
        this.serverChannel = serverChannel;
        this.responses = responses;
    }

    /**
     * Starts serving and returns once the port is bound.
     *
     * @throws IllegalArgumentException when no response can satisfy the profile (the message names
     *     the keys)
     * @throws ServeTlsException when the TLS certificate, key or client CA given cannot be used
     *     (the message names the file or the variable)
     * @throws IllegalStateException when the address cannot be bound (in use, not local, ...)
     */
    public static DemoServer start(Profile profile, ServeOptions options)
            throws InterruptedException {
        return start(profile, options, System::getenv);
    }

    /**
     * As {@link #start(Profile, ServeOptions)}, reading an encrypted key's password variable from
     * {@code environment}.
     */
    public static DemoServer start(
            Profile profile, ServeOptions options, Function<String, String> environment)
            throws InterruptedException {
        SelfSigned generated = null;
        SslContext tls = null;
        Optional<ServeTls> serveTls =
                options.tls().or(() -> profile.tls().map(t -> ServeTls.GENERATED));
        if (serveTls.isPresent()) {
            ServeTls asked = serveTls.get();
            try {
                if (asked.certificate().isPresent()) {
                    tls =
                            ServerTls.context(
                                    asked.certificate().get(),
                                    asked.key().get(),
                                    asked.clientCa(),
                                    asked.keyPasswordEnv(),
                                    environment);
                } else {
                    generated = SelfSigned.forNames(names(profile, options));
                    Optional<List<X509Certificate>> clientCa = Optional.empty();
                    if (asked.clientCa().isPresent()) {
                        clientCa = Optional.of(KeyMaterial.certificates(asked.clientCa().get()));
                    }
                    tls =
                            ServerTls.context(
                                    List.of(generated.certificate()), generated.key(), clientCa);
                }
            } catch (TlsSetupException e) {
                throw new ServeTlsException(e.getMessage(), e);
            }
        }
        try {
            return start(profile, options, tls, generated);
        } catch (RuntimeException | InterruptedException e) {
            ReferenceCountUtil.release(tls);
            throw e;
        }
    }

    /**
     * The names a made certificate carries: loopback by address and name, the address bound, and
     * the profile's host and server name, so that the client's host-name check passes whichever of
     * them it checks.
     */
    private static List<String> names(Profile profile, ServeOptions options) {
        Set<String> names = new LinkedHashSet<>(List.of("127.0.0.1", "::1", "localhost"));
        names.add(options.bindHost());
        names.add(profile.target().host());
        profile.tls().flatMap(TlsSpec::serverName).ifPresent(names::add);
        names.removeIf(name -> name.equals("0.0.0.0") || name.equals("::"));
        return List.copyOf(names);
    }

    private static DemoServer start(
            Profile profile, ServeOptions options, SslContext tls, SelfSigned generated)
            throws InterruptedException {
        ResponseFactory factory = ResponseFactory.forProfile(profile);
        RequestFramer framer =
                profile.request().http()
                        ? null
                        : RequestFramer.forRequest(profile.request(), MAX_REQUEST_BYTES);
        // Requests judged apart, or values carried: each request is read to be answered.
        CorrelatedResponder correlated =
                CorrelatedResponder.appliesTo(profile)
                        ? CorrelatedResponder.forProfile(profile)
                        : null;
        // Native epoll where available, else NIO, as the demo target has always run (only the
        // load side tries io_uring first).
        Transport transport = Transport.select(Epoll.isAvailable() ? "epoll" : "nio");

        List<Thread> threads = new CopyOnWriteArrayList<>();
        ThreadFactory names = new DefaultThreadFactory("tcpload-serve", false);
        ThreadFactory recorded =
                task -> {
                    Thread thread = names.newThread(task);
                    threads.add(thread);
                    return thread;
                };
        EventLoopGroup group =
                new MultiThreadIoEventLoopGroup(
                        options.threads(), recorded, transport.ioHandlerFactory());
        ResponseBuffers responses = new ResponseBuffers(factory, options.failureRate());
        ProblemReporter problems = new ProblemReporter();
        try {
            ResponseTiming timing = ResponseTiming.of(options, System.nanoTime());
            Map<EventLoop, DueResponses> dueByLoop = new ConcurrentHashMap<>();
            ServerBootstrap bootstrap =
                    new ServerBootstrap()
                            .group(group)
                            .channel(transport.serverChannel())
                            // wrktcp opens a connection per request: accept bursts must not drop.
                            .option(ChannelOption.SO_BACKLOG, 1024)
                            .option(ChannelOption.SO_REUSEADDR, true)
                            .childOption(ChannelOption.TCP_NODELAY, true)
                            .childHandler(
                                    new ChannelInitializer<SocketChannel>() {
                                        @Override
                                        protected void initChannel(SocketChannel channel) {
                                            ChannelPipeline pipeline = channel.pipeline();
                                            if (tls != null) {
                                                pipeline.addLast(tls.newHandler(channel.alloc()));
                                            }
                                            if (framer == null) {
                                                pipeline.addLast(new HttpRequestDecoder());
                                                pipeline.addLast(new AggregatorReplyEncoder());
                                                pipeline.addLast(
                                                        new HttpObjectAggregator(
                                                                MAX_REQUEST_BYTES));
                                            } else if (correlated != null) {
                                                pipeline.addLast(
                                                        new RequestFrameDecoder(
                                                                framer, MAX_REQUEST_BYTES, true),
                                                        new CorrelatedHandler(
                                                                correlated,
                                                                options.failureRate(),
                                                                options.delayMs(),
                                                                problems::report,
                                                                responses::countServed));
                                                return;
                                            } else {
                                                pipeline.addLast(
                                                        new RequestFrameDecoder(
                                                                framer, MAX_REQUEST_BYTES));
                                            }
                                            pipeline.addLast(
                                                    new ConnectionHandler(
                                                            responses,
                                                            timing,
                                                            dueByLoop.computeIfAbsent(
                                                                    channel.eventLoop(),
                                                                    DueResponses::new),
                                                            problems::report));
                                        }
                                    });
            ChannelFuture bound = bootstrap.bind(options.bindHost(), options.port()).await();
            if (!bound.isSuccess()) {
                Throwable cause = bound.cause();
                throw new IllegalStateException(
                        "cannot listen on "
                                + options.bindHost()
                                + ":"
                                + options.port()
                                + ": "
                                + (cause.getMessage() == null ? cause : cause.getMessage()),
                        cause);
            }
            // After Netty's acceptor, which pauses accepting for a second on a failed accept (out
            // of file descriptors): the failure is reported like any other, not logged per try.
            bound.channel()
                    .pipeline()
                    .addLast(
                            new ChannelInboundHandlerAdapter() {
                                @Override
                                public void exceptionCaught(
                                        ChannelHandlerContext ctx, Throwable cause) {
                                    problems.report(
                                            "cannot accept a connection: " + cause.getMessage());
                                }
                            });
            return new DemoServer(group, threads, bound.channel(), responses, tls, generated);
        } catch (Throwable failure) {
            stop(group, threads);
            responses.release();
            throw failure;
        }
    }

    /** The port the server listens on (the one chosen by the system when asked for port 0). */
    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Whether the server speaks TLS. */
    public boolean tls() {
        return tls != null;
    }

    /** The certificate made at start, as PEM; empty when it was given, or without TLS. */
    public Optional<String> generatedCertificatePem() {
        return Optional.ofNullable(generated).map(SelfSigned::certificatePem);
    }

    /**
     * {@code profile} as a client of this server loads it: with a made certificate, the profile's
     * TLS trusts that certificate alone (in place of its {@code tls_ca}), so that its chain and
     * host-name checks pass against this server as they would against the real one.
     */
    public Profile clientProfile(Profile profile) {
        if (generated == null || profile.tls().isEmpty()) {
            return profile;
        }
        PemFile own =
                new PemFile(
                        "the demo target's certificate",
                        ImmutableBytes.copyOf(
                                generated.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        return profile.withTls(profile.tls().map(t -> t.withCa(Optional.of(own))));
    }

    /** The responses written so far (successes and failures). */
    public long requestsServed() {
        return responses.served();
    }

    /** Stops listening, closes every connection and waits for the event-loop threads to end. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            serverChannel.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
            stop(group, threads);
            responses.release();
            ReferenceCountUtil.release(tls);
        }
    }

    private static void stop(EventLoopGroup group, List<Thread> threads) {
        // No quiet period: a demo server has nothing to drain once it is told to stop.
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        // The termination future completes just before the threads return: wait for them too.
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                try {
                    thread.join(CLOSE_TIMEOUT_MS);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Prints connection problems to stderr, at most one line a second, never one per failure. */
    private static final class ProblemReporter {
        private final AtomicLong nextReportNs = new AtomicLong(System.nanoTime());

        void report(String problem) {
            long now = System.nanoTime();
            long next = nextReportNs.get();
            if (now - next >= 0
                    && nextReportNs.compareAndSet(next, now + PROBLEM_REPORT_INTERVAL_NS)) {
                System.err.println("serve: " + problem);
            }
        }
    }
}
