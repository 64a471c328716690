package io.tcpload.runner.decode;

import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tcpload.runner.codec.CheckedResponse;
import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.codec.ResponseOutcome;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.ValueRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * A length-prefixed response longer than {@value LengthPrefixedDecoder#IN_PLACE_BYTES} bytes is
 * consumed as it arrives: the input buffer never holds it whole, the decoder keeps only what its
 * judge and value rules read, and it is judged exactly as the same bytes awaited whole would be.
 */
class LongLengthPrefixedResponseTest {
    private static final int BODY_BYTES = 1024 * 1024;
    private static final int PIECE_BYTES = 16 * 1024;

    private static ResponseSpec spec(
            CodeType type, CodeLocation location, String tag, int begin, int length, String ok) {
        return spec(type, location, tag, begin, length, ok, List.of());
    }

    private static ResponseSpec spec(
            CodeType type,
            CodeLocation location,
            String tag,
            int begin,
            int length,
            String ok,
            List<ValueRule> extracts) {
        return new ResponseSpec(
                8,
                1,
                8,
                LengthType.BODY,
                type,
                location,
                tag,
                begin,
                length,
                ok,
                List.of(),
                ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES,
                extracts,
                List.of());
    }

    private static final ResponseSpec XML_ANYWHERE =
            spec(CodeType.XML, CodeLocation.BODY, "<retCode>", 0, 0, "000000");

    private static final ResponseSpec FIXED_IN_BODY =
            spec(CodeType.FIXED, CodeLocation.BODY, "1 6", 1, 6, "000000");

    /** A response whose body is {@code BODY_BYTES} long: {@code lead}, filler, {@code tail}. */
    private static byte[] response(String lead, String tail) {
        byte[] body = new byte[BODY_BYTES];
        Arrays.fill(body, (byte) 'x');
        byte[] leadBytes = ascii(lead);
        byte[] tailBytes = ascii(tail);
        System.arraycopy(leadBytes, 0, body, 0, leadBytes.length);
        System.arraycopy(tailBytes, 0, body, BODY_BYTES - tailBytes.length, tailBytes.length);
        return DecoderHarness.concat(ascii(String.format("%08d", BODY_BYTES)), body);
    }

    /** Feeds {@code bytes} in pieces; returns the most bytes the decoder's input ever held. */
    private static int feed(EmbeddedChannel ch, ResponseDecoder decoder, byte[] bytes) {
        return feed(ch, bytes, decoder::bufferedBytes);
    }

    /** Feeds {@code bytes} in pieces; returns the largest copy the decoder ever kept. */
    private static int feedCopying(
            EmbeddedChannel ch, LengthPrefixedDecoder decoder, byte[] bytes) {
        return feed(ch, bytes, decoder::retainedCopyBytes);
    }

    private static int feed(EmbeddedChannel ch, byte[] bytes, IntSupplier measure) {
        int most = 0;
        for (int from = 0; from < bytes.length; from += PIECE_BYTES) {
            int to = Math.min(bytes.length, from + PIECE_BYTES);
            ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bytes, from, to)));
            most = Math.max(most, measure.getAsInt());
        }
        return most;
    }

    private static List<Object> drain(EmbeddedChannel ch) {
        List<Object> fired = new ArrayList<>();
        for (Object o; (o = ch.readInbound()) != null; ) {
            fired.add(o);
        }
        return fired;
    }

    @Test
    void aTagAtTheEndOfALongBodyIsFoundWithoutTheInputEverHoldingTheResponse() {
        LengthPrefixedDecoder decoder =
                (LengthPrefixedDecoder) ResponseCodecs.of(XML_ANYWHERE, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);

        int most = feed(ch, decoder, response("", "<retCode>000000</retCode>"));
        assertThat(drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        assertThat(most).isLessThanOrEqualTo(PIECE_BYTES);

        feed(ch, decoder, response("", "<retCode>999999</retCode>"));
        assertThat(drain(ch)).containsExactly(ResponseOutcome.FAILURE);
        // The copy of a long body is let go of once it is judged.
        assertThat(decoder.retainedCopyBytes()).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void aTagNearTheStartOfALongBodyStopsTheCopyThere() {
        LengthPrefixedDecoder decoder =
                (LengthPrefixedDecoder) ResponseCodecs.of(XML_ANYWHERE, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int largestCopy =
                feedCopying(
                        ch,
                        decoder,
                        response("<retCode>000000</retCode>", "<retCode>999999</retCode>"));
        // The first tag decides, as in a response awaited whole.
        assertThat(drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        assertThat(largestCopy).isLessThanOrEqualTo(LengthPrefixedDecoder.IN_PLACE_BYTES * 2);
        ch.finish();
    }

    @Test
    void aFixedCodeKeepsOnlyTheBodysFirstBytes() {
        LengthPrefixedDecoder decoder =
                (LengthPrefixedDecoder) ResponseCodecs.of(FIXED_IN_BODY, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int largestCopy = feedCopying(ch, decoder, response("000000", ""));
        assertThat(drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        assertThat(largestCopy).isLessThanOrEqualTo(256);

        feed(ch, decoder, response("000001", "000000"));
        assertThat(drain(ch)).containsExactly(ResponseOutcome.FAILURE);
        ch.finish();
    }

    @Test
    void aCodeInTheHeadIsJudgedFromTheHeadAlone() {
        // The head is the length field, "01048576": its first three bytes are the code.
        ResponseSpec inHead = spec(CodeType.FIXED, CodeLocation.HEAD, "1 3", 1, 3, "010");
        LengthPrefixedDecoder decoder =
                (LengthPrefixedDecoder) ResponseCodecs.of(inHead, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        int largestCopy = feedCopying(ch, decoder, response("", ""));
        assertThat(drain(ch)).containsExactly(ResponseOutcome.SUCCESS);
        assertThat(largestCopy).isLessThanOrEqualTo(256);
        ch.finish();
    }

    @Test
    void aValueAtTheEndOfALongBodyIsCarried() {
        ValueRule session =
                new ValueRule("SESSION", 1, ValueRule.Type.XML, CodeLocation.BODY, "<s>", 0, 0);
        ResponseSpec carrying =
                spec(
                        CodeType.XML,
                        CodeLocation.BODY,
                        "<retCode>",
                        0,
                        0,
                        "000000",
                        List.of(session));
        ResponseDecoder decoder = ResponseCodecs.of(carrying, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        feed(ch, decoder, response("<retCode>000000</retCode>", "<s>abc123</s>"));
        List<Object> fired = drain(ch);
        assertThat(fired).hasSize(1);
        CheckedResponse checked = (CheckedResponse) fired.get(0);
        assertThat(checked.outcome()).isEqualTo(ResponseOutcome.SUCCESS);
        assertThat(checked.values().extracted()[0]).isEqualTo(ascii("abc123"));
        ch.finish();
    }

    @Test
    void theNextResponseInTheSameReadIsJudgedOnItsOwn() {
        ResponseDecoder decoder = ResponseCodecs.of(XML_ANYWHERE, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        byte[] first = response("", "<retCode>000000</retCode>");
        byte[] second = ascii("00000025<retCode>123456</retCode>");
        byte[] both = DecoderHarness.concat(first, second);
        // The first response's last piece and the whole second one arrive in one read.
        int cut = first.length - 100;
        feed(ch, decoder, Arrays.copyOfRange(both, 0, cut));
        ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(both, cut, both.length)));
        assertThat(drain(ch)).containsExactly(ResponseOutcome.SUCCESS, ResponseOutcome.FAILURE);
        ch.finish();
    }

    @Test
    void aLongResponseCutShortIsAReadError() {
        ResponseDecoder decoder = ResponseCodecs.of(XML_ANYWHERE, false, false).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        byte[] whole = response("", "<retCode>000000</retCode>");
        feed(ch, decoder, Arrays.copyOf(whole, whole.length / 2));
        assertThat(drain(ch)).isEmpty();
        assertThatThrownBy(ch::finish)
                .isInstanceOf(ResponseFramingException.class)
                .hasMessageContaining("connection closed before a full response");
    }

    @Test
    void oneResponsePerConnectionStillRefusesBytesAfterALongOne() {
        ResponseDecoder decoder = ResponseCodecs.of(XML_ANYWHERE, false, true).newDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        byte[] extra = DecoderHarness.concat(response("", "<retCode>000000</retCode>"), ascii("!"));
        assertThatThrownBy(() -> feed(ch, decoder, extra))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage("1 byte after a complete response");
        assertThat(drain(ch)).isEmpty();
    }
}
