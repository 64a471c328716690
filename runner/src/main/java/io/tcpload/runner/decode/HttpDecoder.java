package io.tcpload.runner.decode;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.tcpload.runner.codec.CheckedResponse;
import io.tcpload.runner.codec.CodeJudge;
import io.tcpload.runner.codec.HttpResponseFramer;
import io.tcpload.runner.codec.HttpStatusRule;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.profile.CodeLocation;

/**
 * Decodes HTTP/1.1 responses: {@link HttpResponseFramer} frames, {@link CodeJudge} judges the head
 * block or the de-chunked body (of which only what it reads is copied), {@link HttpStatusRule}
 * checks the status. One instance per connection.
 */
final class HttpDecoder extends ResponseDecoder {
    private final HttpResponseFramer framer;
    private final ResponseCodecs.Judging judging;

    HttpDecoder(
            ResponseCodecs.Judging judging,
            long maxResponseBytes,
            boolean singleResponse,
            boolean bodiless) {
        super(singleResponse);
        this.framer =
                new HttpResponseFramer(
                        maxResponseBytes,
                        judging.anyReadsHead(),
                        judging.bodyBytesNeeded(),
                        bodiless,
                        judging::bodyDecidedBy);
        this.judging = judging;
    }

    @Override
    Object decodeResponse(ByteBuf in) {
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
    Object decodeOnClose() {
        return framer.finishOnClose() ? judgeCompleted() : null;
    }

    private Object judgeCompleted() {
        int status = framer.statusCode();
        CodeJudge judge = judging.judge();
        boolean codeOk =
                judge.location() == CodeLocation.HEAD
                        ? judge.isSuccess(
                                framer.headBuffer(), framer.headIndex(), framer.headLength())
                        : judge.isSuccess(
                                framer.bodyBuffer(), framer.bodyIndex(), framer.bodyJudgedLength());
        boolean success = codeOk && judging.statusRule().accepts(status);
        ResponseOutcome outcome = ResponseOutcome.ofHttp(success, status);
        ResponseValues values = judging.values();
        if (values == null) {
            return outcome;
        }
        return new CheckedResponse(
                outcome,
                values.check(
                        framer.headBuffer(),
                        framer.headIndex(),
                        framer.headLength(),
                        framer.bodyBuffer(),
                        framer.bodyIndex(),
                        framer.bodyJudgedLength(),
                        success),
                values);
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
