package io.tcpload.runner.serve;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Answers each request of one connection, in order: {@link RequestFrameDecoder#REQUEST} (raw TCP)
 * or a {@link FullHttpRequest} (HTTP). Without a delay, responses are written as requests arrive
 * and flushed once per read; with a delay, each is scheduled on the connection's event loop (tasks
 * with equal delays run in submission order, so responses stay in request order).
 *
 * <p>Back-pressure: reading stops while the outbound buffer is over its high-water mark or too many
 * delayed responses are pending, so a client that sends without reading cannot grow the server's
 * memory.
 *
 * <p>One instance per connection; all methods run on its event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {
    static final int MAX_PENDING_RESPONSES = 1024;

    private final ResponseBuffers responses;
    private final ResponseTiming timing;

    /** The latest time a response of this connection is scheduled for; later ones go after it. */
    private long lastDueNs = Long.MIN_VALUE;

    private final Consumer<String> problems;
    private int pendingResponses;
    private boolean closing;
    private boolean flushNeeded;

    ConnectionHandler(ResponseBuffers responses, ResponseTiming timing, Consumer<String> problems) {
        this.responses = responses;
        this.timing = timing;
        this.problems = problems;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg == RequestFrameDecoder.REQUEST) {
            answer(ctx, ResponseFactory.Connection.DEFAULT);
        } else if (msg instanceof FullHttpRequest request) {
            try {
                if (request.decoderResult().isFailure()) {
                    problems.accept(
                            "closed a connection from "
                                    + ctx.channel().remoteAddress()
                                    + ": not an HTTP request: "
                                    + request.decoderResult().cause().getMessage());
                    closing = true;
                    ctx.close();
                    return;
                }
                answer(ctx, connectionHeader(request));
            } finally {
                request.release();
            }
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private static ResponseFactory.Connection connectionHeader(FullHttpRequest request) {
        if (!HttpUtil.isKeepAlive(request)) {
            return ResponseFactory.Connection.CLOSE;
        }
        return request.protocolVersion().equals(HttpVersion.HTTP_1_0)
                ? ResponseFactory.Connection.KEEP_ALIVE
                : ResponseFactory.Connection.DEFAULT;
    }

    private void answer(ChannelHandlerContext ctx, ResponseFactory.Connection connection) {
        if (closing) {
            return; // requests after "Connection: close" get no answer
        }
        closing = connection == ResponseFactory.Connection.CLOSE;
        if (timing.immediate()) {
            send(ctx, connection, false);
            return;
        }
        long nowNs = System.nanoTime();
        // Never before an earlier response: responses keep the order of their requests.
        long dueNs = Math.max(nowNs + timing.waitNs(nowNs), lastDueNs);
        lastDueNs = dueNs;
        if (dueNs <= nowNs && pendingResponses == 0) {
            send(ctx, connection, false);
            return;
        }
        pendingResponses++;
        updateAutoRead(ctx);
        ctx.executor()
                .schedule(
                        () -> {
                            pendingResponses--;
                            send(ctx, connection, true);
                            updateAutoRead(ctx);
                        },
                        dueNs - nowNs,
                        TimeUnit.NANOSECONDS);
    }

    private void send(
            ChannelHandlerContext ctx, ResponseFactory.Connection connection, boolean flushNow) {
        if (!ctx.channel().isActive()) {
            return;
        }
        ByteBuf response = responses.next(connection);
        boolean close = connection == ResponseFactory.Connection.CLOSE;
        ChannelFuture written;
        if (flushNow || close) {
            written = ctx.writeAndFlush(response);
        } else {
            written = ctx.write(response);
            flushNeeded = true;
        }
        if (close) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (flushNeeded) {
            flushNeeded = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    private void updateAutoRead(ChannelHandlerContext ctx) {
        boolean read = ctx.channel().isWritable() && pendingResponses < MAX_PENDING_RESPONSES;
        if (ctx.channel().config().isAutoRead() != read) {
            ctx.channel().config().setAutoRead(read);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        closing = true;
        if (cause instanceof IOException) {
            ctx.close(); // a reset or a broken pipe: the client went away, nothing to report
            return;
        }
        String reason = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        problems.accept(
                "closed a connection from " + ctx.channel().remoteAddress() + ": " + reason);
        ctx.close();
    }
}
