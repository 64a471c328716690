package io.tcpload.runner.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class IntFormatTest {

    /**
     * Format, value and the output of glibc printf between brackets, one per line, tab separated.
     * Plain {@code %d} rows use values that fit a C int, so C and we agree on them.
     */
    private static final String PRINTF_RESULTS =
            """
            %08ld\t42\t[00000042]
            %-5d|\t7\t[7    |]
            %+d\t5\t[+5]
            %+d\t-5\t[-5]
            % d\t5\t[ 5]
            % d\t-5\t[-5]
            %+ d\t5\t[+5]
            %x\t255\t[ff]
            %X\t255\t[FF]
            %#x\t255\t[0xff]
            %#X\t255\t[0XFF]
            %#x\t0\t[0]
            %#o\t8\t[010]
            %#o\t0\t[0]
            %o\t8\t[10]
            %08d\t-42\t[-0000042]
            %-08d|\t-42\t[-42     |]
            %-08d|\t42\t[42      |]
            %8d\t-42\t[     -42]
            %+08d\t42\t[+0000042]
            % 08d\t42\t[ 0000042]
            %5d\t123456\t[123456]
            %d\t0\t[0]
            %.3d\t7\t[007]
            %.3d\t-7\t[-007]
            %08.3d\t7\t[     007]
            %.0d\t0\t[]
            [%5.0d]\t0\t[[     ]]
            %#.0o\t0\t[0]
            %.5x\t255\t[000ff]
            %#.5x\t255\t[0x000ff]
            %#08x\t255\t[0x0000ff]
            %-#8x|\t255\t[0xff    |]
            %#.3o\t8\t[010]
            %#5o\t8\t[  010]
            %ld\t-9223372036854775808\t[-9223372036854775808]
            %ld\t9223372036854775807\t[9223372036854775807]
            %020ld\t-9223372036854775808\t[-9223372036854775808]
            %lu\t-1\t[18446744073709551615]
            %lx\t-1\t[ffffffffffffffff]
            %lo\t-1\t[1777777777777777777777]
            %#lo\t-1\t[01777777777777777777777]
            %lu\t-9223372036854775808\t[9223372036854775808]
            %lX\t-9223372036854775808\t[8000000000000000]
            ID-%06ld-end\t123\t[ID-000123-end]
            %lld\t9999999999\t[9999999999]
            %jd\t-1\t[-1]
            %zd\t77\t[77]
            %i\t-3\t[-3]
            %%%ld%%\t5\t[%5%]
            %+.4ld\t12\t[+0012]
            %-+6ld|\t12\t[+12   |]
            %0-6ld|\t3\t[3     |]
            %20ld\t-9223372036854775807\t[-9223372036854775807]
            """;

    static Stream<Arguments> printfResults() {
        return PRINTF_RESULTS
                .lines()
                .filter(line -> !line.isBlank())
                .map(line -> line.split("\t", -1))
                .map(
                        f ->
                                Arguments.of(
                                        f[0].strip(),
                                        Long.parseLong(f[1]),
                                        f[2].substring(1, f[2].length() - 1)));
    }

    @ParameterizedTest(name = "{0} of {1} = [{2}]")
    @MethodSource("printfResults")
    void rendersLikeCPrintf(String format, long value, String expected) {
        IntFormat parsed = IntFormat.parse(format);

        ByteBuf buf = Unpooled.buffer(1);
        buf.writeByte('>');
        parsed.write(value, buf);
        assertThat(buf.toString(StandardCharsets.US_ASCII)).isEqualTo(">" + expected);

        byte[] array = new byte[parsed.maxLength() + 3];
        Arrays.fill(array, (byte) '#');
        int written = parsed.write(value, array, 3);
        assertThat(new String(array, 3, written, StandardCharsets.US_ASCII)).isEqualTo(expected);
        assertThat(written).isEqualTo(parsed.length(value)).isLessThanOrEqualTo(parsed.maxLength());
        assertThat(array[2]).isEqualTo((byte) '#');
    }

    @Test
    void maxLengthCoversTheWidestValues() {
        for (String format : new String[] {"%ld", "%#lo", "%+#20lx", "A%-30luB", "%.40ld"}) {
            IntFormat parsed = IntFormat.parse(format);
            for (long value : new long[] {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE}) {
                assertThat(parsed.length(value)).isLessThanOrEqualTo(parsed.maxLength());
            }
        }
    }

    @Test
    void literalTextMayBeUtf8() {
        IntFormat parsed = IntFormat.parse("n\u00b0%d");
        ByteBuf buf = Unpooled.buffer();
        parsed.write(5, buf);
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("n\u00b05");
    }

    @Test
    void writeIntoATooSmallArrayFailsWithoutWriting() {
        IntFormat parsed = IntFormat.parse("%08ld");
        byte[] small = new byte[4];
        assertThatThrownBy(() -> parsed.write(1, small, 0))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(small).containsOnly(0);
    }

    @Test
    void noConversionIsRejectedWithAPlainSentence() {
        assertThatThrownBy(() -> IntFormat.parse("abc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "integer format must contain exactly one integer conversion such as"
                                + " %08ld; found none in 'abc'");
        assertThatThrownBy(() -> IntFormat.parse("100%%"))
                .hasMessageContaining("found none in '100%%'");
    }

    @Test
    void twoConversionsAreRejected() {
        assertThatThrownBy(() -> IntFormat.parse("%d-%d"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("found more than one in '%d-%d'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"%s", "%5.2f", "%c", "%ld%n", "%p", "%Ld"})
    void otherConversionsAreRejectedNamingThem(String format) {
        assertThatThrownBy(() -> IntFormat.parse(format))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not an integer conversion");
    }

    @Test
    void rejectionNamesTheConversion() {
        assertThatThrownBy(() -> IntFormat.parse("id=%5s"))
                .hasMessage(
                        "integer format 'id=%5s': '%5s' is not an integer conversion"
                                + " (use d, i, u, x, X or o)");
    }

    @Test
    void starWidthAndPrecisionAreRejected() {
        assertThatThrownBy(() -> IntFormat.parse("%*d"))
                .hasMessageContaining("'*' width is not supported");
        assertThatThrownBy(() -> IntFormat.parse("%.*d"))
                .hasMessageContaining("'*' precision is not supported");
    }

    @Test
    void trailingPercentIsRejected() {
        assertThatThrownBy(() -> IntFormat.parse("%d%"))
                .hasMessageContaining("'%' at the end is an unfinished conversion");
        assertThatThrownBy(() -> IntFormat.parse("%08l"))
                .hasMessageContaining("'%08l' at the end is an unfinished conversion");
    }

    @Test
    void hugeWidthIsRejectedInsteadOfAllocated() {
        assertThatThrownBy(() -> IntFormat.parse("%999999999999d"))
                .hasMessageContaining("width 999999999999 is too large");
        assertThatThrownBy(() -> IntFormat.parse("%.2000d"))
                .hasMessageContaining("precision 2000 is too large");
        assertThat(IntFormat.parse("%1024d").length(1)).isEqualTo(1024);
    }

    @Test
    void equalityFollowsTheFormatText() {
        assertThat(IntFormat.parse("%08ld")).isEqualTo(IntFormat.parse("%08ld"));
        assertThat(IntFormat.parse("%08ld")).hasSameHashCodeAs(IntFormat.parse("%08ld"));
        assertThat(IntFormat.parse("%08ld")).isNotEqualTo(IntFormat.parse("%08d"));
        assertThat(IntFormat.parse("%08ld")).hasToString("%08ld");
    }
}
