package io.tcpload.runner.decode;

import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tcpload.runner.cli.UrlProfile;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.ResponseSpec;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A body that goes on and on (close-delimited, or chunk after chunk) ends in a read error at {@code
 * max_response_bytes}, and meanwhile costs only what the code check needs of it: nothing for wrk's
 * empty check, the first bytes for a fixed code, at most {@code max_response_bytes} for a tag that
 * may lie anywhere. So does a long body of a declared length, as it arrives.
 */
class EndlessBodyTest {
    private static final int MAX_BODY_BYTES = 1024 * 1024;
    private static final byte[] PIECE = new byte[64 * 1024];

    static {
        Arrays.fill(PIECE, (byte) 'x');
        System.arraycopy(ascii("000000"), 0, PIECE, 0, 6);
    }

    private static ResponseSpec spec(CodeType type, String tag, int begin, int length, String ok) {
        ResponseSpec d = ResponseSpec.defaults();
        return new ResponseSpec(
                d.headLength(),
                d.lengthBegin(),
                d.lengthWidth(),
                d.lengthType(),
                type,
                CodeLocation.BODY,
                tag,
                begin,
                length,
                ok,
                List.of(),
                MAX_BODY_BYTES);
    }

    /** wrk's check of a URL run: an empty code, which every response passes. */
    private static final ResponseSpec EMPTY_CODE = spec(CodeType.FIXED, "1 0", 1, 0, "");

    private static final ResponseSpec FIXED_CODE = spec(CodeType.FIXED, "1 6", 1, 6, "000000");

    private static final ResponseSpec JSON_CODE = spec(CodeType.JSON, "\"rspCd\"", 0, 0, "0000");

    /**
     * Feeds the head and then body pieces up to {@code bodyBytes}; returns the largest copy seen.
     */
    private static int feed(EmbeddedChannel ch, HttpDecoder decoder, String head, long bodyBytes) {
        ch.writeInbound(Unpooled.wrappedBuffer(ascii(head)));
        int largest = decoder.retainedCopyBytes();
        for (long fed = 0; fed < bodyBytes; fed += PIECE.length) {
            ch.writeInbound(Unpooled.wrappedBuffer(PIECE));
            largest = Math.max(largest, decoder.retainedCopyBytes());
        }
        return largest;
    }

    @Test
    void aCloseDelimitedBodyThatNeverEndsFailsAtTheLimitKeepingNothingForAnEmptyCode() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(EMPTY_CODE, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int largest = feed(ch, decoder, "HTTP/1.1 200 OK\r\n\r\n", MAX_BODY_BYTES);
        assertThat(largest).isZero();
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(PIECE)))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage(
                        "HTTP close-delimited body exceeds max_response_bytes " + MAX_BODY_BYTES);
        assertThat(DecoderHarness.drain(ch)).isEmpty();
    }

    @Test
    void aFixedCodeKeepsOnlyTheBodysFirstBytesAndStillJudgesThem() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(FIXED_CODE, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int largest = feed(ch, decoder, "HTTP/1.1 200 OK\r\n\r\n", MAX_BODY_BYTES - PIECE.length);
        assertThat(largest).isLessThanOrEqualTo(256);
        ch.finish();
        assertThat(DecoderHarness.drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
    }

    @Test
    void aLongChunkedBodyIsJudgedOnItsFirstBytesForAFixedCode() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(FIXED_CODE, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(
                Unpooled.wrappedBuffer(
                        ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")));
        String chunkHead = Integer.toHexString(PIECE.length) + "\r\n";
        for (int i = 0; i < 8; i++) {
            ch.writeInbound(Unpooled.wrappedBuffer(ascii(chunkHead)));
            ch.writeInbound(Unpooled.wrappedBuffer(PIECE));
            ch.writeInbound(Unpooled.wrappedBuffer(ascii("\r\n")));
            assertThat(decoder.retainedCopyBytes()).isLessThanOrEqualTo(256);
        }
        ch.writeInbound(Unpooled.wrappedBuffer(ascii("0\r\n\r\n")));
        assertThat(DecoderHarness.drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        // A body shorter than the code's end still fails, as before.
        ch.writeInbound(
                Unpooled.wrappedBuffer(
                        ascii(
                                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n000\r\n0\r\n\r\n")));
        assertThat(DecoderHarness.drain(ch)).containsExactly(ResponseOutcome.FAILURE);
        ch.finish();
    }

    @Test
    void aTagAnywhereKeepsAtMostTheLimit() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(JSON_CODE, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int largest = feed(ch, decoder, "HTTP/1.1 200 OK\r\n\r\n", MAX_BODY_BYTES);
        assertThat(largest).isLessThanOrEqualTo(MAX_BODY_BYTES);
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.wrappedBuffer(PIECE)))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessageContaining("exceeds max_response_bytes");
    }

    @Test
    void aLongContentLengthBodyIsReadAsItArrivesAndJudgedOnItsFirstBytes() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(FIXED_CODE, true, false).newDecoder();
        DecoderHarness.MeasuringAllocator alloc = new DecoderHarness.MeasuringAllocator();
        EmbeddedChannel ch = DecoderHarness.channel(decoder, alloc);
        String head = "HTTP/1.1 200 OK\r\nContent-Length: " + MAX_BODY_BYTES + "\r\n\r\n";
        int largest = feed(ch, decoder, head, MAX_BODY_BYTES - PIECE.length);
        assertThat(largest).isLessThanOrEqualTo(256);
        assertThat(DecoderHarness.drain(ch)).isEmpty();
        // The last piece with the next response behind it, in one read.
        byte[] next = ascii("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n999999");
        byte[] both = Arrays.copyOf(PIECE, PIECE.length + next.length);
        System.arraycopy(next, 0, both, PIECE.length, next.length);
        ch.writeInbound(Unpooled.wrappedBuffer(both));

        assertThat(DecoderHarness.drain(ch))
                .containsExactly(ResponseOutcome.SUCCESS, ResponseOutcome.FAILURE);
        // Never the whole body in one buffer: what was read was let go piece by piece.
        assertThat(alloc.largestRequest.get()).isLessThan(4 * PIECE.length);
        ch.finish();
    }

    /** A URL run's response rule: the status alone judges, and nothing bounds the body. */
    private static final ResponseSpec URL_RUN =
            UrlProfile.build("http://127.0.0.1:1/", "GET", List.of(), "").response();

    @Test
    void aUrlRunReadsABodyOfAnyDeclaredLengthAsItArrives() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(URL_RUN, true, false).newDecoder();
        EmbeddedChannel ch =
                DecoderHarness.channel(decoder, new DecoderHarness.MeasuringAllocator());
        // A terabyte announced: read as it arrives, never refused for its size.
        int largest =
                feed(
                        ch,
                        decoder,
                        "HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n",
                        1 << 20);

        assertThat(DecoderHarness.drain(ch)).isEmpty();
        assertThat(largest).isZero();
        // Closed before its end: a read error, as for any body cut short.
        assertThatThrownBy(ch::finish)
                .isInstanceOf(ResponseFramingException.class)
                .hasMessageContaining("connection closed before a full response");
    }

    @Test
    void aUrlRunCountsABodyPastTwoGibibytesAsOneSuccess() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(URL_RUN, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        long bodyBytes = (1L << 31) + (1L << 20);
        byte[] megabyte = new byte[1 << 20];
        ch.writeInbound(
                Unpooled.wrappedBuffer(
                        ascii("HTTP/1.1 200 OK\r\nContent-Length: " + bodyBytes + "\r\n\r\n")));
        for (long fed = 0; fed < bodyBytes; fed += megabyte.length) {
            ch.writeInbound(Unpooled.wrappedBuffer(megabyte));
        }

        assertThat(DecoderHarness.drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        ch.finish();
    }

    @Test
    void aLengthThatDoesNotFitIsTooLargeNamingNoProfileKey() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(URL_RUN, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);

        assertThatThrownBy(
                        () ->
                                ch.writeInbound(
                                        Unpooled.wrappedBuffer(
                                                ascii(
                                                        "HTTP/1.1 200 OK\r\nContent-Length:"
                                                                + " 99999999999999999999\r\n\r\n"))))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage("HTTP Content-Length '99999999999999999999' is too large");
        ch.finishAndReleaseAll();
    }

    @Test
    void aTagNearTheStartOfALongBodyStopsTheCopyThere() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(JSON_CODE, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int bodyBytes = MAX_BODY_BYTES - PIECE.length;
        String head = "HTTP/1.1 200 OK\r\nContent-Length: " + bodyBytes + "\r\n\r\n";
        ch.writeInbound(Unpooled.wrappedBuffer(ascii(head + "{\"rspCd\":\"0000\",")));
        int largest = 0;
        byte[] filler = new byte[PIECE.length];
        Arrays.fill(filler, (byte) ' ');
        int fed = "{\"rspCd\":\"0000\",".length();
        while (fed < bodyBytes) {
            int n = Math.min(filler.length, bodyBytes - fed);
            ch.writeInbound(Unpooled.wrappedBuffer(filler, 0, n));
            fed += n;
            largest = Math.max(largest, decoder.retainedCopyBytes());
        }
        // The first key decides, as in a body awaited whole; the rest of the body is not kept.
        assertThat(DecoderHarness.drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        assertThat(largest).isLessThanOrEqualTo(4 * PIECE.length);
        ch.finish();
    }

    @Test
    void aLongContentLengthBodyCutShortIsAReadError() {
        HttpDecoder decoder = (HttpDecoder) ResponseCodecs.of(EMPTY_CODE, true, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        feed(ch, decoder, "HTTP/1.1 200 OK\r\nContent-Length: 200000\r\n\r\n", PIECE.length);
        assertThat(DecoderHarness.drain(ch)).isEmpty();
        // A close before the declared end is a read error, as for a body awaited whole.
        assertThatThrownBy(ch::finish)
                .isInstanceOf(ResponseFramingException.class)
                .hasMessageContaining("connection closed before a full response");
    }
}
