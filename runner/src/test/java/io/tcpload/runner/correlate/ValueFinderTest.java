package io.tcpload.runner.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.ValueRule;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValueFinderTest {

    private static ValueRule rule(ValueRule.Type type, String tag) {
        return new ValueRule("SESSION", 1, type, CodeLocation.BODY, tag, 0, 0);
    }

    private static ValueFinder.Found find(ValueRule rule, String text) {
        ByteBuf buf = Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
        try {
            // An offset area, as a response's body lies after its head.
            return new ValueFinder(rule).find(buf, 3, buf.readableBytes() - 3);
        } finally {
            buf.release();
        }
    }

    private static String value(ValueFinder.Found found) {
        assertThat(found.failure()).isNull();
        return new String(found.value(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void findsByFixedPlaceXmlTagJsonKeyAndRegex() {
        assertThat(
                        value(
                                find(
                                        new ValueRule(
                                                "S",
                                                1,
                                                ValueRule.Type.FIXED,
                                                CodeLocation.BODY,
                                                "3 4",
                                                3,
                                                4),
                                        "HDRxxABCDyy")))
                .isEqualTo("ABCD");
        assertThat(
                        value(
                                find(
                                        rule(ValueRule.Type.XML, "<session>"),
                                        "HDR<a><session>K42</session>")))
                .isEqualTo("K42");
        assertThat(
                        value(
                                find(
                                        rule(ValueRule.Type.JSON, "\"session\""),
                                        "HDR{\"code\":\"0\",\"session\": \"K 43\"}")))
                .isEqualTo("K 43");
        assertThat(
                        value(
                                find(
                                        rule(ValueRule.Type.REGEX, "sess=([A-Z0-9]+);"),
                                        "HDRx sess=AB12; y")))
                .isEqualTo("AB12");
        // Without a group, the whole match.
        assertThat(value(find(rule(ValueRule.Type.REGEX, "K[0-9]+"), "HDRab K77 c")))
                .isEqualTo("K77");
    }

    @Test
    void aJsonValueRunsToItsClosingQuoteNotToAnEscapedOne() {
        ValueRule session = rule(ValueRule.Type.JSON, "\"session\"");
        assertThat(value(find(session, "HDR{\"session\":\"a\\\"b\",\"x\":\"y\"}")))
                .isEqualTo("a\\\"b");
        assertThat(value(find(session, "HDR{\"session\":\"c:\\\\\",\"x\":1}"))).isEqualTo("c:\\\\");
        assertThat(find(session, "HDR{\"session\":\"a\\\"").failure())
                .isEqualTo("no quoted value after \"session\" in the body");
    }

    @Test
    void aValueNotThereIsAReasonThatNamesTheRuleNotTheResponse() {
        assertThat(find(rule(ValueRule.Type.XML, "<session>"), "HDR<a>nothing</a>").failure())
                .isEqualTo("no <session> in the body");
        assertThat(find(rule(ValueRule.Type.XML, "<session>"), "HDR<session>open").failure())
                .isEqualTo("no </ after <session> in the body");
        assertThat(find(rule(ValueRule.Type.JSON, "\"session\""), "HDR{\"session\":1}").failure())
                .isEqualTo("no quoted value after \"session\" in the body");
        assertThat(find(rule(ValueRule.Type.REGEX, "x([0-9]+)"), "HDRabc").failure())
                .isEqualTo("regex x([0-9]+) matches nothing");
        ValueRule fixed =
                new ValueRule("S", 1, ValueRule.Type.FIXED, CodeLocation.BODY, "5 10", 5, 10);
        assertThat(find(fixed, "HDRshort").failure()).isEqualTo("the body has no bytes 5 to 14");
    }

    @Test
    void aHugeValueIsRefusedNotCopied() {
        String huge = "HDR<session>" + "A".repeat(ValueRule.MAX_VALUE_BYTES + 1) + "</session>";
        assertThat(find(rule(ValueRule.Type.XML, "<session>"), huge).failure())
                .isEqualTo("the value is longer than " + ValueRule.MAX_VALUE_BYTES + " bytes");
        String fits = "HDR<session>" + "A".repeat(ValueRule.MAX_VALUE_BYTES) + "</session>";
        assertThat(value(find(rule(ValueRule.Type.XML, "<session>"), fits)))
                .hasSize(ValueRule.MAX_VALUE_BYTES);
    }

    @Test
    void aBacktrackingRegexOverGarbageGivesUpWithinItsBudget() {
        // (a+)+b over a long run of a's backtracks exponentially without a bound.
        String garbage = "HDR" + "a".repeat(8 * 1024 * 1024);
        long started = System.nanoTime();
        ValueFinder.Found found = find(rule(ValueRule.Type.REGEX, "(a+)+b"), garbage);
        assertThat(found.value()).isNull();
        assertThat(found.failure())
                .isEqualTo("regex (a+)+b gave up after " + ValueFinder.REGEX_STEPS + " steps");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aRegexSeesOnlyItsWindowOfAHugeResponse() {
        String text = "HDR" + "x".repeat(ValueFinder.REGEX_WINDOW_BYTES) + "sess=K1;";
        assertThat(find(rule(ValueRule.Type.REGEX, "sess=([A-Z0-9]+);"), text).failure())
                .isEqualTo("regex sess=([A-Z0-9]+); matches nothing");
    }

    @Test
    void garbageBytesAreFoundAsTheyAre() {
        byte[] bytes = {'H', 'D', 'R', '<', 's', '>', (byte) 0xC4, 0, (byte) 0xFF, '<', '/'};
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        ValueFinder.Found found = new ValueFinder(rule(ValueRule.Type.XML, "<s>")).find(buf, 3, 8);
        assertThat(found.value()).containsExactly((byte) 0xC4, 0, (byte) 0xFF);
    }
}
