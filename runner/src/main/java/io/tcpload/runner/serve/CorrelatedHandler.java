package io.tcpload.runner.serve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Answers each raw TCP request of one connection by {@link CorrelatedResponder}: the request's own
 * bytes (from {@link RequestFrameDecoder} keeping them) decide the answer, and the connection's
 * issued values are its {@link CorrelatedResponder.Session}. Answers go out in order, after {@code
 * --delay-ms} when one is set.
 *
 * <p>One instance per connection; all methods run on its event loop.
 */
final class CorrelatedHandler extends ChannelInboundHandlerAdapter {
    private final CorrelatedResponder responder;
    private final CorrelatedResponder.Session session = new CorrelatedResponder.Session();
    private final double failureRate;
    private final long delayMs;
    private final Consumer<String> problems;
    private final Runnable served;

    CorrelatedHandler(
            CorrelatedResponder responder,
            double failureRate,
            long delayMs,
            Consumer<String> problems,
            Runnable served) {
        this.responder = responder;
        this.failureRate = failureRate;
        this.delayMs = delayMs;
        this.problems = problems;
        this.served = served;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        byte[] request;
        try {
            request = ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
        boolean fail = failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
        ByteBuf response = Unpooled.wrappedBuffer(responder.answer(request, session, fail));
        if (HeadResponses.isHead(request)) {
            HeadResponses.dropBody(response);
        }
        served.run();
        if (delayMs > 0) {
            // A single delay keeps the order: every answer waits the same time.
            ctx.executor()
                    .schedule(() -> ctx.writeAndFlush(response), delayMs, TimeUnit.MILLISECONDS);
        } else {
            ctx.write(response);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            String reason = cause.getMessage() == null ? cause.toString() : cause.getMessage();
            problems.accept(
                    "closed a connection from " + ctx.channel().remoteAddress() + ": " + reason);
        }
        ctx.close();
    }
}
