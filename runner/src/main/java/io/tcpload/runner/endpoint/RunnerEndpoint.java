package io.tcpload.runner.endpoint;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tcpload.runner.client.StartGate;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.RunnerProtocol;
import io.tcpload.runner.metrics.MetricsBridge;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runner's HTTP endpoint, the paths of {@link RunnerProtocol}: {@code /metrics} (Prometheus
 * text or OpenMetrics, as the scraper's {@code Accept} asks), {@code /stats} ({@link LiveStats} as
 * JSON), {@code /healthz} and {@code /readyz}, answering GET and HEAD; with a {@link
 * ControlChannel}, also {@code POST /start?at=EPOCH_MS&offsetUs=OFFSET}, {@code GET /result} and
 * {@code POST /finish}, and for a runner of a distributed search {@code POST /step} and {@code GET
 * /step-result}: with a control token, only for requests that carry it (401 otherwise), the other
 * paths staying open to scrapers and probes on the same port.
 *
 * <p>It runs on event loops of its own, never the load's, and is non-blocking: a client that sends
 * half a request and stalls holds one connection and nothing else, until {@link #READ_TIMEOUT_S}
 * closes it. Requests are bounded in size and connections in number, so that no client can make the
 * endpoint hold more than a little memory.
 *
 * <p>Threading: {@link #close} may be called from any thread.
 */
public final class RunnerEndpoint implements AutoCloseable {
    /** A connection that has sent nothing for this long is closed, mid-request or idle. */
    static final int READ_TIMEOUT_S = 10;

    /** The request line, the headers, and a body (none of ours has one) are each at most this. */
    static final int MAX_REQUEST_BYTES = 8 * 1024;

    /** Connections served at once; more are closed as they come. */
    static final int MAX_CONNECTIONS = 256;

    private static final String PLAIN = "text/plain; charset=utf-8";
    private static final String JSON = "application/json";
    private static final int WORKERS = 2;

    private final EventLoopGroup group;
    private final Channel server;

    private RunnerEndpoint(EventLoopGroup group, Channel server) {
        this.group = group;
        this.server = server;
    }

    /**
     * Starts serving on {@code host:port} ({@code port} 0 picks a free one).
     *
     * @param control the orchestrator's paths, or null for a runner not driven by one
     * @throws IOException when the address cannot be bound
     */
    public static RunnerEndpoint start(
            String host,
            int port,
            MetricsBridge metrics,
            LiveStatsTracker stats,
            ControlChannel control)
            throws IOException {
        EventLoopGroup group =
                new MultiThreadIoEventLoopGroup(
                        WORKERS,
                        new DefaultThreadFactory("tcpload-endpoint", true),
                        NioIoHandler.newFactory());
        AtomicInteger open = new AtomicInteger();
        Routes routes = new Routes(metrics, stats, control);
        ServerBootstrap bootstrap =
                new ServerBootstrap()
                        .group(group)
                        .channel(NioServerSocketChannel.class)
                        .childHandler(
                                new ChannelInitializer<SocketChannel>() {
                                    @Override
                                    protected void initChannel(SocketChannel channel) {
                                        if (open.incrementAndGet() > MAX_CONNECTIONS) {
                                            open.decrementAndGet();
                                            channel.close();
                                            return;
                                        }
                                        channel.closeFuture()
                                                .addListener(f -> open.decrementAndGet());
                                        channel.pipeline()
                                                .addLast(
                                                        new ReadTimeoutHandler(READ_TIMEOUT_S),
                                                        new HttpServerCodec(
                                                                MAX_REQUEST_BYTES,
                                                                MAX_REQUEST_BYTES,
                                                                MAX_REQUEST_BYTES),
                                                        new HttpObjectAggregator(MAX_REQUEST_BYTES),
                                                        new Handler(routes));
                                    }
                                });
        try {
            Channel server = bootstrap.bind(host, port).sync().channel();
            return new RunnerEndpoint(group, server);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            shutdown(group);
            throw new IOException("interrupted while binding", e);
        } catch (RuntimeException e) {
            shutdown(group);
            throw new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
    }

    /** The port bound. */
    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** Stops serving and releases the port. */
    @Override
    public void close() {
        server.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        shutdown(group);
    }

    private static void shutdown(EventLoopGroup group) {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
    }

    /**
     * An answer: status, content type and body, the methods a 405 allows, and what to do once it
     * has been sent.
     */
    record Answer(
            HttpResponseStatus status,
            String contentType,
            String body,
            List<String> allow,
            Runnable afterSent) {
        static Answer of(HttpResponseStatus status, String contentType, String body) {
            return new Answer(status, contentType, body, List.of(), () -> {});
        }

        static Answer notAllowed(String body) {
            return new Answer(
                    HttpResponseStatus.METHOD_NOT_ALLOWED,
                    PLAIN,
                    body,
                    List.of("GET", "HEAD"),
                    () -> {});
        }

        static Answer unauthorized() {
            return plain(
                    HttpResponseStatus.UNAUTHORIZED,
                    "the control paths need Authorization: Bearer and this runner's token\n");
        }

        static Answer plain(HttpResponseStatus status, String body) {
            return of(status, PLAIN, body);
        }
    }

    /** Which answer each request gets; runs on the endpoint's event loops. */
    record Routes(MetricsBridge metrics, LiveStatsTracker stats, ControlChannel control) {
        /**
         * @param authorization the request's {@code Authorization} header, null when absent
         */
        Answer answer(
                HttpMethod method, QueryStringDecoder uri, String accept, String authorization) {
            String path = uri.path();
            if (method.equals(HttpMethod.POST) && control != null) {
                if (!path.equals(RunnerProtocol.START)
                        && !path.equals(RunnerProtocol.FINISH)
                        && !path.equals(RunnerProtocol.STEP)) {
                    return Answer.notAllowed("POST only to /start, /step and /finish\n");
                }
                if (!control.admits(authorization)) {
                    return Answer.unauthorized();
                }
                return switch (path) {
                    case RunnerProtocol.START -> start(uri);
                    case RunnerProtocol.STEP -> step(uri);
                    default -> finish();
                };
            }
            if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
                return Answer.notAllowed("only GET and HEAD\n");
            }
            return switch (path) {
                case RunnerProtocol.METRICS -> metrics(accept);
                case RunnerProtocol.STATS -> Answer.of(HttpResponseStatus.OK, JSON, statsJson());
                case RunnerProtocol.RESULT ->
                        control != null && !control.admits(authorization)
                                ? Answer.unauthorized()
                                : result();
                case RunnerProtocol.STEP_RESULT ->
                        control != null && !control.admits(authorization)
                                ? Answer.unauthorized()
                                : stepResult(uri);
                case RunnerProtocol.HEALTHZ -> Answer.plain(HttpResponseStatus.OK, "ok\n");
                case RunnerProtocol.READYZ ->
                        stats.ready()
                                ? Answer.plain(HttpResponseStatus.OK, "ready\n")
                                : Answer.plain(
                                        HttpResponseStatus.SERVICE_UNAVAILABLE,
                                        "waiting for the load to start\n");
                default ->
                        Answer.plain(
                                HttpResponseStatus.NOT_FOUND,
                                "not found: try /metrics, /stats, /healthz, /readyz\n");
            };
        }

        private String statsJson() {
            LiveStats now = stats.stats();
            if (control == null) {
                return now.answeredAt(StartGate.nowEpochUs()).toJson();
            }
            StartGate gate = control.gate();
            Long atEpochMs = gate.startAtEpochMs();
            LiveStats told =
                    atEpochMs != null && atEpochMs > 0
                            ? now.withStartAt(atEpochMs, gate.clockOffsetUs())
                            : now;
            if (control.steps().isPresent()) {
                told = told.withStep(control.steps().get().currentStep());
            }
            // Read last, as close to the answer as can be: the orchestrator's clock estimate
            // takes it for the middle of the round trip.
            return told.answeredAt(gate.epochUs()).toJson();
        }

        private Answer start(QueryStringDecoder uri) {
            List<String> at = uri.parameters().get(RunnerProtocol.START_AT);
            List<String> offset = uri.parameters().get(RunnerProtocol.START_OFFSET);
            long atEpochMs;
            long offsetUs = 0;
            try {
                if (at == null || at.size() != 1 || (offset != null && offset.size() != 1)) {
                    throw new NumberFormatException();
                }
                atEpochMs = Long.parseLong(at.get(0));
                if (offset != null) {
                    offsetUs = Long.parseLong(offset.get(0));
                }
            } catch (NumberFormatException e) {
                return Answer.plain(
                        HttpResponseStatus.BAD_REQUEST,
                        "give the start as /start?at=EPOCH_MILLISECONDS[&offsetUs=MICROSECONDS]\n");
            }
            return switch (control.start(atEpochMs, offsetUs)) {
                case STARTING ->
                        Answer.plain(HttpResponseStatus.OK, "starting at " + atEpochMs + "\n");
                case CONFLICT ->
                        Answer.plain(
                                HttpResponseStatus.CONFLICT,
                                "already starting at " + control.gate().startAtEpochMs() + "\n");
                case OUT_OF_RANGE ->
                        Answer.plain(
                                HttpResponseStatus.BAD_REQUEST,
                                "the start "
                                        + atEpochMs
                                        + " is more than "
                                        + ControlChannel.PAST_LIMIT.toSeconds()
                                        + " s in the past or more than a day ahead of this"
                                        + " runner's clock\n");
            };
        }

        private Answer step(QueryStringDecoder uri) {
            if (control.steps().isEmpty()) {
                return noSteps();
            }
            StepChannel steps = control.steps().get();
            Map<String, List<String>> parameters = uri.parameters();
            if (parameters.containsKey(RunnerProtocol.STEP_END)) {
                if (!single(parameters, RunnerProtocol.STEP_END).equals("true")) {
                    return Answer.plain(
                            HttpResponseStatus.BAD_REQUEST, "give the end as /step?end=true\n");
                }
                steps.end();
                return Answer.plain(HttpResponseStatus.OK, "the search ends\n");
            }
            StepChannel.Request request;
            try {
                request =
                        new StepChannel.Request(
                                Integer.parseInt(single(parameters, RunnerProtocol.STEP_NUMBER)),
                                Double.parseDouble(single(parameters, RunnerProtocol.STEP_RATE)),
                                Long.parseLong(single(parameters, RunnerProtocol.STEP_WARMUP)),
                                Long.parseLong(single(parameters, RunnerProtocol.STEP_DURATION)),
                                Long.parseLong(single(parameters, RunnerProtocol.STEP_AT)),
                                parameters.containsKey(RunnerProtocol.STEP_OFFSET)
                                        ? Long.parseLong(
                                                single(parameters, RunnerProtocol.STEP_OFFSET))
                                        : 0);
            } catch (NumberFormatException e) {
                return Answer.plain(
                        HttpResponseStatus.BAD_REQUEST,
                        "give a step as /step?number=N&rate=R&warmupMs=W&durationMs=D"
                                + "&at=EPOCH_MILLISECONDS[&offsetUs=MICROSECONDS]\n");
            }
            return switch (steps.post(request)) {
                case TAKEN ->
                        Answer.plain(
                                HttpResponseStatus.OK,
                                "step " + request.number() + " at " + request.atEpochMs() + "\n");
                case CONFLICT ->
                        Answer.plain(
                                HttpResponseStatus.CONFLICT,
                                "step "
                                        + request.number()
                                        + " is not the next: the last taken is step "
                                        + steps.currentStep()
                                        + (steps.result(steps.currentStep()).state()
                                                        == StepChannel.ResultState.PENDING
                                                ? ", still pending or running"
                                                : "")
                                        + "\n");
                case ENDED ->
                        Answer.plain(
                                HttpResponseStatus.CONFLICT,
                                "the search has ended: no more steps\n");
                case OUT_OF_RANGE ->
                        Answer.plain(
                                HttpResponseStatus.BAD_REQUEST,
                                "a step needs a number from 1, a positive rate and duration, no"
                                        + " negative warm-up, and an instant at most "
                                        + ControlChannel.PAST_LIMIT.toSeconds()
                                        + " s in the past or a day ahead of this runner's clock\n");
            };
        }

        private Answer stepResult(QueryStringDecoder uri) {
            if (control == null || control.steps().isEmpty()) {
                return noSteps();
            }
            int number;
            try {
                number = Integer.parseInt(single(uri.parameters(), RunnerProtocol.STEP_NUMBER));
            } catch (NumberFormatException e) {
                return Answer.plain(
                        HttpResponseStatus.BAD_REQUEST, "give the step as /step-result?number=N\n");
            }
            StepChannel.StepResult result = control.steps().get().result(number);
            return switch (result.state()) {
                case DONE -> Answer.of(HttpResponseStatus.OK, JSON, result.json().orElseThrow());
                case PENDING ->
                        Answer.plain(
                                HttpResponseStatus.CONFLICT,
                                "step " + number + " has not run to its end yet\n");
                case UNKNOWN ->
                        Answer.plain(
                                HttpResponseStatus.NOT_FOUND,
                                "no step "
                                        + number
                                        + " here: never taken, cut short or forgotten\n");
            };
        }

        private static Answer noSteps() {
            return Answer.plain(
                    HttpResponseStatus.NOT_FOUND,
                    "this runner takes no steps: it was not started with"
                            + " --search-steps-from-control\n");
        }

        /** The one value of {@code name}; a missing or repeated parameter is no number. */
        private static String single(Map<String, List<String>> parameters, String name) {
            List<String> values = parameters.get(name);
            if (values == null || values.size() != 1) {
                throw new NumberFormatException(name);
            }
            return values.get(0);
        }

        private Answer finish() {
            if (control.result().isEmpty()) {
                return Answer.plain(
                        HttpResponseStatus.CONFLICT, "no result yet: the run has not finished\n");
            }
            // Let go once the answer is out: the runner then closes this endpoint and exits.
            return new Answer(
                    HttpResponseStatus.OK,
                    PLAIN,
                    "finishing\n",
                    List.of(),
                    control::finishRequested);
        }

        private Answer result() {
            if (control == null) {
                return Answer.plain(
                        HttpResponseStatus.NOT_FOUND,
                        "no result here: the runner was not started for it\n");
            }
            return control.result()
                    .map(json -> Answer.of(HttpResponseStatus.OK, JSON, json))
                    .orElseGet(
                            () ->
                                    Answer.plain(
                                            HttpResponseStatus.CONFLICT,
                                            "the run has not finished\n"));
        }

        private Answer metrics(String accept) {
            boolean openMetrics =
                    accept != null
                            && accept.toLowerCase(Locale.ROOT)
                                    .contains("application/openmetrics-text");
            String contentType =
                    openMetrics ? MetricsBridge.OPENMETRICS_FORMAT : MetricsBridge.TEXT_FORMAT;
            return Answer.of(
                    HttpResponseStatus.OK, contentType, metrics.registry().scrape(contentType));
        }
    }

    /** One connection: a whole request in, one answer out. */
    private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Routes routes;

        Handler(Routes routes) {
            this.routes = routes;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (request.decoderResult().isFailure()) {
                send(
                        ctx,
                        request,
                        Answer.plain(HttpResponseStatus.BAD_REQUEST, "malformed request\n"),
                        false);
                return;
            }
            Answer answer =
                    routes.answer(
                            request.method(),
                            new QueryStringDecoder(request.uri()),
                            request.headers().get(HttpHeaderNames.ACCEPT),
                            request.headers().get(HttpHeaderNames.AUTHORIZATION));
            send(ctx, request, answer, HttpUtil.isKeepAlive(request));
        }

        private static void send(
                ChannelHandlerContext ctx,
                FullHttpRequest request,
                Answer answer,
                boolean keepAlive) {
            byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
            boolean head = request.method().equals(HttpMethod.HEAD);
            ByteBuf content = head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(bytes);
            FullHttpResponse response =
                    new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, answer.status(), content);
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, answer.contentType())
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            if (!answer.allow().isEmpty()) {
                response.headers().set(HttpHeaderNames.ALLOW, String.join(", ", answer.allow()));
            }
            if (answer.status().equals(HttpResponseStatus.UNAUTHORIZED)) {
                response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer");
            }
            response.headers()
                    .set(
                            HttpHeaderNames.CONNECTION,
                            keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            ChannelFuture sent = ctx.writeAndFlush(response);
            sent.addListener(f -> answer.afterSent().run());
            if (!keepAlive) {
                sent.addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A read timeout or a reset: this client is gone, the others are not affected.
            ctx.close();
        }
    }
}
