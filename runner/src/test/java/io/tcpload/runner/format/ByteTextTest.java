package io.tcpload.runner.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ByteTextTest {
    private static final Charset GBK = Charset.forName("GBK");

    @Test
    void anyBytesComeBackAsTheyWere() {
        Random random = new Random(42);
        for (int round = 0; round < 2_000; round++) {
            byte[] bytes = new byte[random.nextInt(64)];
            random.nextBytes(bytes);

            String text = ByteText.decode(bytes);

            assertThat(ByteText.encode(text)).isEqualTo(bytes);
            assertThat(ByteText.encodedLength(text)).isEqualTo(bytes.length);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "plain ASCII",
                "\u00e9l\u00e8ve",
                "\u4f60\u597d\uff0c\u4e16\u754c",
                "emoji \ud83d\ude00 and \ud83d\udc4d",
                "\u20ac100"
            })
    void utf8ReadsAsTheTextItIs(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);

        assertThat(ByteText.decode(utf8)).isEqualTo(text);
        assertThat(ByteText.encode(text)).isEqualTo(utf8);
        assertThat(ByteText.hasKeptBytes(text)).isFalse();
        assertThat(ByteText.display(text)).isEqualTo(text);
    }

    @Test
    void gbkAndLatin1KeepTheirBytesAndShowThemEscaped() {
        byte[] gbk = "<\u540d\u5b57>".getBytes(GBK);
        byte[] latin1 = "S\u00e3o Paulo".getBytes(StandardCharsets.ISO_8859_1);

        String gbkText = ByteText.decode(gbk);
        String latin1Text = ByteText.decode(latin1);

        assertThat(ByteText.encode(gbkText)).isEqualTo(gbk);
        assertThat(ByteText.encode(latin1Text)).isEqualTo(latin1);
        assertThat(ByteText.display(gbkText)).isEqualTo("<\\xC3\\xFB\\xD7\\xD6>");
        assertThat(ByteText.display(latin1Text)).isEqualTo("S\\xE3o Paulo");
        assertThat(gbkText).startsWith("<").endsWith(">").hasSize(6);
    }

    @Test
    void textWithAnyByteThatIsNotUtf8ShowsAllItsNonAsciiBytesEscaped() {
        // UTF-8 \u00e9, then the Latin-1 byte for it.
        byte[] mixed = {(byte) 0xC3, (byte) 0xA9, ' ', (byte) 0xE9, ' ', 'x'};

        assertThat(ByteText.display(ByteText.decode(mixed))).isEqualTo("\\xC3\\xA9 \\xE9 x");
    }

    @Test
    void whatStrictUtf8RefusesIsKeptAsBytes() {
        byte[][] invalid = {
            {(byte) 0xC0, (byte) 0x80}, // overlong NUL
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded surrogate
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xE4, (byte) 0xBD}, // cut short at the end
        };
        for (byte[] bytes : invalid) {
            String text = ByteText.decode(bytes);

            assertThat(text).hasSize(bytes.length);
            assertThat(ByteText.hasKeptBytes(text)).isTrue();
            assertThat(ByteText.encode(text)).isEqualTo(bytes);
        }
    }

    @Test
    void halfASurrogatePairFromOutsideEncodesAsAQuestionMark() {
        assertThat(ByteText.encode("a\ud800b")).isEqualTo(new byte[] {'a', '?', 'b'});
        assertThat(ByteText.encode("\udc00")).isEqualTo(new byte[] {'?'});
        assertThat(ByteText.encodedLength("a\ud800b")).isEqualTo(3);
    }
}
