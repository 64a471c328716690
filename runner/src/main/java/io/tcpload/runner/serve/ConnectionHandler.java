package io.tcpload.runner.serve;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * Answers each request of one connection, in order: {@link RequestFrameDecoder#REQUEST} (raw TCP)
 * or a {@link FullHttpRequest} (HTTP). Without a delay, responses are written as requests arrive
 * and flushed once per read; with a delay or a stall, each is held in its event loop's {@link
 * DueResponses}, which writes them in request order when they fall due. With workers, each request
 * first waits its turn in the server's {@link WorkerQueue}.
 *
 * <p>Back-pressure: reading stops while the outbound buffer is over its high-water mark or too many
 * delayed responses are pending, so a client that sends without reading cannot grow the server's
 * memory.
 *
 * <p>A HEAD request gets the head alone ({@link HeadResponses}).
 *
 * <p>One instance per connection; all methods run on its event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter implements DueResponses.Writer {
    static final int MAX_PENDING_RESPONSES = 1024;

    private final ResponseBuffers responses;
    private final ResponseTiming timing;
    private final WorkerQueue workers;
    private final DueResponses due;
    private final Consumer<String> problems;
    private ChannelHandlerContext ctx;
    private int pendingResponses;
    private boolean closing;
    private boolean flushNeeded;

    /** Whether each held response answers a HEAD request, oldest first, as they are written. */
    private final ArrayDeque<Boolean> heldHead = new ArrayDeque<>();

    /**
     * @param due the held responses of the connection's event loop; only read when {@code timing}
     *     is not immediate
     */
    ConnectionHandler(
            ResponseBuffers responses,
            ResponseTiming timing,
            DueResponses due,
            Consumer<String> problems) {
        this(responses, timing, null, due, problems);
    }

    /**
     * @param workers the server's workers, whose queue each request waits in before its delay; null
     *     for none
     */
    ConnectionHandler(
            ResponseBuffers responses,
            ResponseTiming timing,
            WorkerQueue workers,
            DueResponses due,
            Consumer<String> problems) {
        this.responses = responses;
        this.timing = timing;
        this.workers = workers;
        this.due = due;
        this.problems = problems;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg == RequestFrameDecoder.REQUEST) {
            answer(ctx, ResponseFactory.Connection.DEFAULT, false);
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
                answer(ctx, connectionHeader(request), request.method().equals(HttpMethod.HEAD));
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

    private void answer(
            ChannelHandlerContext ctx, ResponseFactory.Connection connection, boolean head) {
        if (closing) {
            return; // requests after "Connection: close" get no answer
        }
        closing = connection == ResponseFactory.Connection.CLOSE;
        if (timing.immediate() && workers == null) {
            send(ctx, connection, head);
            return;
        }
        long nowNs = System.nanoTime();
        // A worker finishes the request first; the delay and a stall then hold its response.
        long servedNs = workers == null ? nowNs : workers.doneNs(nowNs);
        long dueNs = servedNs + timing.waitNs(servedNs);
        if (dueNs <= nowNs && pendingResponses == 0) {
            send(ctx, connection, head);
            return;
        }
        pendingResponses++;
        heldHead.add(head);
        updateAutoRead(ctx);
        due.hold(this, connection, dueNs);
    }

    @Override
    public boolean writeHeld(ResponseFactory.Connection connection) {
        pendingResponses--;
        boolean head = heldHead.remove();
        updateAutoRead(ctx);
        if (!ctx.channel().isActive()) {
            return false;
        }
        send(ctx, connection, head);
        return true;
    }

    @Override
    public void flushHeld() {
        if (flushNeeded) {
            flushNeeded = false;
            ctx.flush();
        }
    }

    /** Writes a response; flushed at the end of the read or of the held batch, or now to close. */
    private void send(
            ChannelHandlerContext ctx, ResponseFactory.Connection connection, boolean head) {
        if (!ctx.channel().isActive()) {
            return;
        }
        ByteBuf response = responses.next(connection);
        if (head) {
            HeadResponses.dropBody(response);
        }
        if (connection == ResponseFactory.Connection.CLOSE) {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.write(response);
            flushNeeded = true;
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
