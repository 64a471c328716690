package io.tcpload.runner.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.tcpload.runner.profile.CodeLocation;

/**
 * Decodes HTTP/1.1 responses: {@link HttpResponseFramer} frames, {@link CodeJudge} judges the head
 * block or the de-chunked body (of which only what it reads is copied), {@link HttpStatusRule}
 * checks the status. One instance per connection.
 */
final class HttpDecoder extends ResponseDecoder {
    private final HttpResponseFramer framer;
    private final CodeJudge judge;
    private final HttpStatusRule statusRule;

    HttpDecoder(
            CodeJudge judge,
            HttpStatusRule statusRule,
            long maxResponseBytes,
            boolean singleResponse) {
        super(singleResponse);
        boolean judgesHead = judge.location() == CodeLocation.HEAD;
        long bodyKept = judgesHead ? 0 : judge.bytesNeeded();
        this.framer = new HttpResponseFramer(maxResponseBytes, judgesHead, bodyKept);
        this.judge = judge;
        this.statusRule = statusRule;
    }

    @Override
    ResponseOutcome decodeResponse(ByteBuf in) {
        return framer.parse(in) ? judgeCompleted() : null;
    }

    @Override
    void skipBetweenResponses(ByteBuf in) {
        framer.skipBetweenResponses(in);
    }

    @Override
    boolean lastOnConnection() {
        return framer.closesConnection();
    }

    @Override
    ResponseOutcome decodeOnClose() {
        return framer.finishOnClose() ? judgeCompleted() : null;
    }

    private ResponseOutcome judgeCompleted() {
        int status = framer.statusCode();
        boolean codeOk =
                judge.location() == CodeLocation.HEAD
                        ? judge.isSuccess(
                                framer.headBuffer(), framer.headIndex(), framer.headLength())
                        : judge.isSuccess(
                                framer.bodyBuffer(), framer.bodyIndex(), framer.bodyLength());
        return ResponseOutcome.ofHttp(codeOk && statusRule.accepts(status), status);
    }

    /** What this connection's copies of heads and bodies cost now; for tests. */
    int retainedCopyBytes() {
        return framer.retainedCopyBytes();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        framer.release();
    }
}
