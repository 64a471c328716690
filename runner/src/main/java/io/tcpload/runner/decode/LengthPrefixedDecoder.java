package io.tcpload.runner.decode;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.codec.CheckedResponse;
import io.tcpload.runner.codec.CodeJudge;
import io.tcpload.runner.codec.LengthPrefixedFramer;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.profile.CodeLocation;

/**
 * Decodes wrktcp's length-prefixed responses: {@link LengthPrefixedFramer} frames, {@link
 * CodeJudge} judges the head or body in place. One instance per connection.
 */
final class LengthPrefixedDecoder extends ResponseDecoder {
    private final LengthPrefixedFramer framer;
    private final ResponseCodecs.Judging judging;

    LengthPrefixedDecoder(
            LengthPrefixedFramer framer, ResponseCodecs.Judging judging, boolean singleResponse) {
        super(singleResponse);
        this.framer = framer;
        this.judging = judging;
    }

    @Override
    Object decodeResponse(ByteBuf in) {
        int size = framer.responseSize(in);
        if (size < 0 || in.readableBytes() < size) {
            return null;
        }
        int start = in.readerIndex();
        int headLength = framer.headLength();
        CodeJudge judge = judging.judge();
        boolean success =
                judge.location() == CodeLocation.HEAD
                        ? judge.isSuccess(in, start, headLength)
                        : judge.isSuccess(in, start + headLength, size - headLength);
        ResponseOutcome outcome = success ? ResponseOutcome.SUCCESS : ResponseOutcome.FAILURE;
        ResponseValues values = judging.values();
        if (values == null) {
            in.skipBytes(size);
            return outcome;
        }
        ResponseValues.Checked checked =
                values.check(
                        in, start, headLength, in, start + headLength, size - headLength, success);
        in.skipBytes(size);
        return new CheckedResponse(outcome, checked, values);
    }
}
