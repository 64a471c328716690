package io.tcpload.runner.codec;

import io.tcpload.runner.profile.ResponseSpec;
import java.util.function.IntConsumer;

/**
 * Builds the per-connection response decoders of one run.
 *
 * <p>A decoder fires one {@link ResponseOutcome} per complete response, in order, with {@code
 * ctx.fireChannelRead}. On bytes that cannot be framed it throws {@link ResponseFramingException}
 * (through {@code exceptionCaught}) and then discards everything it receives; the connection is to
 * be closed and counted as a read error. A connection that closes in the middle of a response
 * yields such an exception too, except that a close-delimited HTTP response (no {@code
 * Content-Length}, not chunked) completes on close. The decoder also tells whether each response
 * was the connection's last and where it began ({@link ResponseDecoder}).
 *
 * <p>Immutable and thread-safe. The parts derived from the spec (tags, success code, status table,
 * length framing) are computed once, by {@link #of}, and shared by every decoder it makes: build it
 * once per run and hand it to every event loop, so that a new connection (one per request in
 * wrktcp's default mode) only creates its decoder.
 */
public final class ResponseCodecs {
    private final boolean http;
    private final boolean singleResponse;
    private final long maxResponseBytes;
    private final CodeJudge judge;

    /** The status table in HTTP mode, else null. */
    private final HttpStatusRule statusRule;

    /** The length framing in raw mode, else null (in HTTP mode it need not be consistent). */
    private final LengthPrefixedFramer framer;

    private ResponseCodecs(ResponseSpec spec, boolean http, boolean singleResponse) {
        this.http = http;
        this.singleResponse = singleResponse;
        this.maxResponseBytes = spec.maxResponseBytes();
        this.judge = new CodeJudge(spec);
        this.statusRule = http ? new HttpStatusRule(spec.httpStatuses()) : null;
        this.framer = http ? null : new LengthPrefixedFramer(spec);
    }

    /**
     * The decoders of one run.
     *
     * @param spec how responses are framed and judged
     * @param http HTTP/1.1 framing if {@code true}; wrktcp's length-prefixed framing otherwise
     * @param singleResponse each connection carries exactly one response (wrktcp's short
     *     connections), so bytes beyond the first complete response are a framing error
     * @throws IllegalArgumentException in raw mode, when the spec's length field does not fit its
     *     head (the profile loader refuses such a profile first)
     */
    public static ResponseCodecs of(ResponseSpec spec, boolean http, boolean singleResponse) {
        return new ResponseCodecs(spec, http, singleResponse);
    }

    /** A new decoder for one connection. */
    public ResponseDecoder newDecoder() {
        return newDecoder(bytes -> {});
    }

    /**
     * A new decoder for one connection that tells {@code bytesRead} the size of every read first
     * (one handler less on the path of every read).
     */
    public ResponseDecoder newDecoder(IntConsumer bytesRead) {
        ResponseDecoder decoder =
                http
                        ? new HttpDecoder(judge, statusRule, maxResponseBytes, singleResponse)
                        : new LengthPrefixedDecoder(framer, judge, singleResponse);
        decoder.countReadsInto(bytesRead);
        return decoder;
    }
}
