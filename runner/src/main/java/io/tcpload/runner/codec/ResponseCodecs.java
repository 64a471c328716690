package io.tcpload.runner.codec;

import io.netty.channel.ChannelHandler;
import io.tcpload.runner.profile.ResponseSpec;
import java.util.function.IntConsumer;

/**
 * Builds the per-connection response decoders.
 *
 * <p>A decoder fires one {@link ResponseOutcome} per complete response, in order, with {@code
 * ctx.fireChannelRead}. On bytes that cannot be framed it throws {@link ResponseFramingException}
 * (through {@code exceptionCaught}) and then discards everything it receives; the connection is to
 * be closed and counted as a read error. A connection that closes in the middle of a response
 * yields such an exception too, except that a close-delimited HTTP response (no {@code
 * Content-Length}, not chunked) completes on close. The decoder also tells whether each response
 * was the connection's last and where it began ({@link ResponseDecoder}).
 *
 * <p>Thread-safe. The parts derived from a spec (tags, success code, status table) are computed
 * once and shared by every connection using that spec.
 */
public final class ResponseCodecs {
    /** The last spec's derived parts; a run uses one spec, so one entry is enough. */
    private static volatile Compiled last;

    private ResponseCodecs() {}

    /**
     * A new decoder for one connection.
     *
     * @param spec how responses are framed and judged
     * @param http HTTP/1.1 framing if {@code true}; wrktcp's length-prefixed framing otherwise
     * @param singleResponse the connection carries exactly one response (wrktcp's short
     *     connections), so bytes beyond the first complete response are a framing error
     */
    public static ChannelHandler newDecoder(
            ResponseSpec spec, boolean http, boolean singleResponse) {
        return newDecoder(spec, http, singleResponse, bytes -> {});
    }

    /**
     * As {@link #newDecoder(ResponseSpec, boolean, boolean)}, telling {@code bytesRead} the size of
     * every read first (one handler less on the path of every read).
     */
    public static ResponseDecoder newDecoder(
            ResponseSpec spec, boolean http, boolean singleResponse, IntConsumer bytesRead) {
        ResponseDecoder decoder = build(spec, http, singleResponse);
        decoder.countReadsInto(bytesRead);
        return decoder;
    }

    private static ResponseDecoder build(ResponseSpec spec, boolean http, boolean singleResponse) {
        Compiled compiled = compiled(spec);
        if (http) {
            return new HttpDecoder(
                    compiled.judge,
                    compiled.statusRule,
                    spec.maxResponseBytes(),
                    singleResponse,
                    null);
        }
        return new LengthPrefixedDecoder(compiled.framer(), compiled.judge, singleResponse);
    }

    private static Compiled compiled(ResponseSpec spec) {
        Compiled c = last;
        if (c == null || c.spec != spec) {
            c = new Compiled(spec);
            last = c;
        }
        return c;
    }

    private static final class Compiled {
        final ResponseSpec spec;
        final CodeJudge judge;
        final HttpStatusRule statusRule;
        private volatile LengthPrefixedFramer framer;

        Compiled(ResponseSpec spec) {
            this.spec = spec;
            this.judge = new CodeJudge(spec);
            this.statusRule = new HttpStatusRule(spec.httpStatuses());
        }

        /** Built on first use: in HTTP mode the raw framing fields need not be consistent. */
        LengthPrefixedFramer framer() {
            LengthPrefixedFramer f = framer;
            if (f == null) {
                f = new LengthPrefixedFramer(spec);
                framer = f;
            }
            return f;
        }
    }
}
