package io.tcpload.runner.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LengthPrefixedFramerTest {
    private static final long MAX = ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES;

    private static int size(ResponseSpec spec, String head) {
        return new LengthPrefixedFramer(spec).responseSize(Unpooled.wrappedBuffer(ascii(head)));
    }

    @ParameterizedTest(name = "body length ''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "'00000013'|21",
                "'00000000'|8",
                "'      13'|21",
                "'13      '|21",
                "'  +13   '|21",
                "'+0000013'|21",
                "'\t0000013'|21",
            })
    void acceptsDecimalLengths(String head, int expectedSize) {
        assertThat(size(ResponseSpec.defaults(), head)).isEqualTo(expectedSize);
    }

    @ParameterizedTest(name = "body length ''{0}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "'ab12cd34'|response length field 'ab12cd34' is not a number",
                "'0000 013'|response length field '0000 013' is not a number",
                "'0x000013'|response length field '0x000013' is not a number",
                "'+-000013'|response length field '+-000013' is not a number",
                "'-0000005'|response length field '-0000005' is negative",
                "'   -5   '|response length field '   -5   ' is negative",
                "'        '|response length field '        ' has no digits",
                "'   +    '|response length field '   +    ' has no digits",
            })
    void rejectsAnythingElse(String head, String message) {
        assertThatThrownBy(() -> size(ResponseSpec.defaults(), head))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage(message);
    }

    @Test
    void quotesUnprintableBytesEscaped() {
        ByteBuf head =
                Unpooled.wrappedBuffer(new byte[] {'0', 0, '1', '\n', (byte) 0xff, '\'', '3', '4'});
        assertThatThrownBy(
                        () -> new LengthPrefixedFramer(ResponseSpec.defaults()).responseSize(head))
                .hasMessage("response length field '0\\x001\\x0a\\xff\\x2734' is not a number");
    }

    @Test
    void readsTheFieldInsideALongerHead() {
        ResponseSpec spec = Corpus.xmlBodySpec();
        assertThat(size(spec, "XMLHEAD0000005120201231")).isEqualTo(23 + 51);
        // Only the 8 field bytes count; the digits around them do not.
        assertThat(size(spec, "1234567000000519999999")).isEqualTo(-1); // 22 < 23 bytes
        assertThat(size(spec, "12345670000005199999999")).isEqualTo(23 + 51);
    }

    @Test
    void waitsForTheWholeHead() {
        assertThat(size(ResponseSpec.defaults(), "0000001")).isEqualTo(-1);
        assertThat(size(ResponseSpec.defaults(), "")).isEqualTo(-1);
    }

    @Test
    void totalLengthCountsTheHead() {
        ResponseSpec total = Corpus.withFraming(8, 1, 8, LengthType.TOTAL, MAX);
        assertThat(size(total, "00000021")).isEqualTo(21);
        assertThat(size(total, "00000008")).isEqualTo(8);
        assertThatThrownBy(() -> size(total, "00000005"))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage("declared response length 5 is shorter than the 8-byte head");
    }

    @Test
    void oversizeLengthsFailAtTheHead() {
        ResponseSpec total = Corpus.withFraming(9, 1, 9, LengthType.TOTAL, MAX);
        assertThatThrownBy(() -> size(total, "999999999"))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage(
                        "declared response length 999999999 exceeds max_response_bytes 16777216");

        ResponseSpec body = Corpus.withFraming(10, 1, 10, LengthType.BODY, MAX);
        assertThatThrownBy(() -> size(body, "9999999999"))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessage(
                        "declared response length 10000000009 (10-byte head + 9999999999)"
                                + " exceeds max_response_bytes 16777216");

        ResponseSpec small = Corpus.withFraming(8, 1, 8, LengthType.BODY, 100);
        assertThat(size(small, "00000092")).isEqualTo(100);
        assertThatThrownBy(() -> size(small, "00000093"))
                .hasMessageContaining("exceeds max_response_bytes 100");
    }

    @Test
    void rejectsAFieldOutsideTheHead() {
        assertThatThrownBy(
                        () ->
                                new LengthPrefixedFramer(
                                        Corpus.withFraming(8, 3, 8, LengthType.BODY, MAX)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("length field at 3 width 8 does not fit a 8-byte head");
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
