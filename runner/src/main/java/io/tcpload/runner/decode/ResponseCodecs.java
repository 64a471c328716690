package io.tcpload.runner.decode;

import io.netty.buffer.ByteBuf;
import io.tcpload.runner.codec.CodeJudge;
import io.tcpload.runner.codec.HttpStatusRule;
import io.tcpload.runner.codec.LengthPrefixedFramer;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.correlate.ResponseValues;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.ResponseSpec;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;

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

    /** Every request is a HEAD request: responses end at their blank line. */
    private final boolean bodiless;

    /** One judge per request of a mix (index 0 alone without a mix). */
    private final CodeJudge[] judges;

    /** The status tables in HTTP mode, by the same index, else null. */
    private final HttpStatusRule[] statusRules;

    /** By the same index, what each rule carries from its responses; null where nothing. */
    private final ResponseValues[] values;

    /** The length framing in raw mode, else null (in HTTP mode it need not be consistent). */
    private final LengthPrefixedFramer framer;

    private ResponseCodecs(
            ResponseSpec spec, List<ResponseSpec> judged, boolean http, boolean singleResponse) {
        this.http = http;
        this.singleResponse = singleResponse;
        this.maxResponseBytes = spec.maxResponseBytes();
        this.bodiless = false;
        this.judges = new CodeJudge[judged.size()];
        this.statusRules = http ? new HttpStatusRule[judged.size()] : null;
        for (int i = 0; i < judges.length; i++) {
            judges[i] = new CodeJudge(judged.get(i));
            if (http) {
                statusRules[i] = new HttpStatusRule(judged.get(i).httpStatuses());
            }
        }
        this.framer = http ? null : new LengthPrefixedFramer(spec);
        List<String> variables = variablesOf(spec, judged);
        this.values = new ResponseValues[judged.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ResponseValues.of(judged.get(i), variables);
        }
    }

    /**
     * The variables the rules extract, each once, in the order first written: {@code spec}'s, then
     * each judging rule's (the order of {@code Profile.variables()}).
     */
    static List<String> variablesOf(ResponseSpec spec, List<ResponseSpec> judged) {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        spec.extracts().forEach(rule -> names.add(rule.name()));
        for (ResponseSpec rule : judged) {
            rule.extracts().forEach(extract -> names.add(extract.name()));
        }
        return List.copyOf(names);
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
        return new ResponseCodecs(spec, List.of(spec), http, singleResponse);
    }

    /**
     * The decoders of a run of a transaction mix: every response is framed by {@code spec}, and
     * judged by the rule of the request it answers, {@code judged.get(i)} for request {@code i}.
     */
    public static ResponseCodecs of(
            ResponseSpec spec, List<ResponseSpec> judged, boolean http, boolean singleResponse) {
        if (judged.isEmpty()) {
            throw new IllegalArgumentException("no judging rule");
        }
        return new ResponseCodecs(spec, judged, http, singleResponse);
    }

    private ResponseCodecs(ResponseCodecs codecs, boolean bodiless) {
        this.http = codecs.http;
        this.singleResponse = codecs.singleResponse;
        this.maxResponseBytes = codecs.maxResponseBytes;
        this.bodiless = bodiless;
        this.judges = codecs.judges;
        this.statusRules = codecs.statusRules;
        this.values = codecs.values;
        this.framer = codecs.framer;
    }

    /**
     * These decoders for a run whose requests are all HTTP HEAD requests ({@link
     * io.tcpload.runner.profile.RequestSpec#head()}): a response ends at its blank line, whatever
     * its {@code Content-Length} or {@code Transfer-Encoding} announce.
     */
    public ResponseCodecs answeringHead() {
        if (!http) {
            throw new IllegalStateException("HEAD requests are HTTP's");
        }
        return new ResponseCodecs(this, true);
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
        return newDecoder(bytesRead, () -> 0);
    }

    /**
     * As {@link #newDecoder(IntConsumer)}, judging each response by the rule {@code answering}
     * names when the response is complete: the index of the request it answers (the connection's
     * oldest request in flight).
     */
    public ResponseDecoder newDecoder(IntConsumer bytesRead, IntSupplier answering) {
        Judging judging = new Judging(judges, statusRules, values, answering);
        ResponseDecoder decoder =
                http
                        ? new HttpDecoder(judging, maxResponseBytes, singleResponse, bodiless)
                        : new LengthPrefixedDecoder(framer, judging, singleResponse);
        decoder.countReadsInto(bytesRead);
        return decoder;
    }

    /**
     * The judge of the response just framed: the only one, or in a mix the one of the request it
     * answers.
     */
    static final class Judging {
        private final CodeJudge[] judges;
        private final HttpStatusRule[] statusRules;
        private final ResponseValues[] values;
        private final IntSupplier answering;

        Judging(
                CodeJudge[] judges,
                HttpStatusRule[] statusRules,
                ResponseValues[] values,
                IntSupplier answering) {
            this.judges = judges;
            this.statusRules = statusRules;
            this.values = values;
            this.answering = answering;
        }

        /** What the rule of the response just framed carries; null for nothing. */
        ResponseValues values() {
            return values[index()];
        }

        private int index() {
            if (judges.length == 1) {
                return 0;
            }
            int index = answering.getAsInt();
            return index >= 0 && index < judges.length ? index : 0;
        }

        CodeJudge judge() {
            return judges[index()];
        }

        HttpStatusRule statusRule() {
            return statusRules[index()];
        }

        /** Whether some rule reads the head: the HTTP framer then keeps it. */
        boolean anyReadsHead() {
            for (CodeJudge judge : judges) {
                if (judge.location() == CodeLocation.HEAD) {
                    return true;
                }
            }
            for (ResponseValues rule : values) {
                if (rule != null && rule.readsHead()) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Whether the leading {@code length} body bytes at {@code index} of {@code buf} decide
         * every judge that reads the body, and no value rule reads the body: more bytes of it
         * cannot change the judgement.
         */
        boolean bodyDecidedBy(ByteBuf buf, int index, int length) {
            for (ResponseValues rule : values) {
                if (rule != null && rule.readsBody()) {
                    return false;
                }
            }
            for (CodeJudge judge : judges) {
                if (judge.location() == CodeLocation.BODY && !judge.decidedBy(buf, index, length)) {
                    return false;
                }
            }
            return true;
        }

        /** The most leading body bytes a rule reads: what the HTTP framer keeps of a body. */
        long bodyBytesNeeded() {
            long most = 0;
            for (ResponseValues rule : values) {
                if (rule != null && rule.readsBody()) {
                    // A value may lie anywhere: the whole body, within max_response_bytes.
                    return Long.MAX_VALUE;
                }
            }
            for (CodeJudge judge : judges) {
                if (judge.location() == CodeLocation.BODY) {
                    most = Math.max(most, judge.bytesNeeded());
                }
            }
            return most;
        }
    }
}
