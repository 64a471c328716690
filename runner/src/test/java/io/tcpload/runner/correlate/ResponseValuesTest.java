package io.tcpload.runner.correlate;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.profile.ValueRule;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseValuesTest {
    private static final List<String> VARIABLES = List.of("OTHER", "SESSION");

    private static ResponseSpec spec(List<ValueRule> extracts, List<ValueRule> echoes) {
        ResponseSpec d = ResponseSpec.defaults();
        return new ResponseSpec(
                d.headLength(),
                d.lengthBegin(),
                d.lengthWidth(),
                d.lengthType(),
                d.codeType(),
                d.codeLocation(),
                d.codeTag(),
                d.fixedCodeBegin(),
                d.fixedCodeLength(),
                d.codeSuccess(),
                d.httpStatuses(),
                d.maxResponseBytes(),
                extracts,
                echoes);
    }

    private static ValueRule xml(String name, String tag) {
        return new ValueRule(name, 1, ValueRule.Type.XML, CodeLocation.BODY, tag, 0, 0);
    }

    private static ResponseValues.Checked check(ResponseValues values, String body, boolean ok) {
        ByteBuf buf = Unpooled.copiedBuffer(body, StandardCharsets.ISO_8859_1);
        try {
            return values.check(null, 0, 0, buf, 0, buf.readableBytes(), ok);
        } finally {
            buf.release();
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aRuleWithoutValuesCompilesToNothing() {
        assertThat(ResponseValues.of(ResponseSpec.defaults(), VARIABLES)).isNull();
    }

    @Test
    void anExtractedValueIsSetAndAMissingOneUnsetsItAndFailsTheResponse() {
        ResponseValues values =
                ResponseValues.of(spec(List.of(xml("SESSION", "<s>")), List.of()), VARIABLES);
        Variables variables = new Variables(VARIABLES);

        assertThat(values.settle(check(values, "<s>K1</s>", true), null, variables)).isNull();
        assertThat(variables.get(1)).isEqualTo(ascii("K1"));
        assertThat(variables.get(0)).isNull();

        String failure = values.settle(check(values, "<x>K2</x>", true), null, variables);
        assertThat(failure).isEqualTo("extract SESSION: no <s> in the body");
        assertThat(variables.get(1)).as("never left stale").isNull();
    }

    @Test
    void aResponseThatFailedItsCodeGivesNoValue() {
        ResponseValues values =
                ResponseValues.of(spec(List.of(xml("SESSION", "<s>")), List.of()), VARIABLES);
        Variables variables = new Variables(VARIABLES);
        variables.set(1, ascii("OLD"));
        // Already a failure by its code: no second reason, and the old value goes.
        assertThat(values.settle(check(values, "<s>K1</s>", false), null, variables)).isNull();
        assertThat(variables.get(1)).isNull();
    }

    @Test
    void anEchoMustCarryWhatWasSentAndIsNotCheckedWhenNothingWasSent() {
        ResponseValues values =
                ResponseValues.of(spec(List.of(), List.of(xml("TRACE", "<trace>"))), VARIABLES);
        assertThat(values.echoNames()).containsExactly("TRACE");
        byte[][] sent = {ascii("00000007")};

        assertThat(values.settle(check(values, "<trace>00000007</trace>", true), sent, null))
                .isNull();
        assertThat(values.settle(check(values, "<trace>00000008</trace>", true), sent, null))
                .isEqualTo("echo TRACE: the response carries another value than was sent");
        assertThat(values.settle(check(values, "<none/>", true), sent, null))
                .isEqualTo("echo TRACE: no <trace> in the body");
        assertThat(values.settle(check(values, "<none/>", true), new byte[1][], null)).isNull();
    }

    @Test
    void aHeadRuleReadsTheHead() {
        ValueRule head =
                new ValueRule("SESSION", 1, ValueRule.Type.FIXED, CodeLocation.HEAD, "3 2", 3, 2);
        ResponseValues values = ResponseValues.of(spec(List.of(head), List.of()), VARIABLES);
        assertThat(values.readsHead()).isTrue();
        assertThat(values.readsBody()).isFalse();
        ByteBuf headBuf = Unpooled.copiedBuffer("00K9", StandardCharsets.US_ASCII);
        Variables variables = new Variables(VARIABLES);
        assertThat(values.settle(values.check(headBuf, 0, 4, null, 0, 0, true), null, variables))
                .isNull();
        assertThat(variables.get(1)).isEqualTo(ascii("K9"));
        headBuf.release();
    }
}
