package io.tcpload.runner.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CodeJudgeTest {

    private static boolean judgeWhole(ResponseSpec spec, String area) {
        ByteBuf buf = Unpooled.wrappedBuffer(area.getBytes(StandardCharsets.UTF_8));
        return new CodeJudge(spec).isSuccess(buf, 0, buf.readableBytes());
    }

    private static boolean judgeBody(ResponseSpec spec, byte[] response, int headLength) {
        ByteBuf buf = Unpooled.wrappedBuffer(response);
        return new CodeJudge(spec).isSuccess(buf, headLength, response.length - headLength);
    }

    @Test
    void corpusXmlBodyIsSuccess() {
        assertThat(judgeBody(Corpus.xmlBodySpec(), Corpus.bytes("02_xml_body.rsp1.bin"), 23))
                .isTrue();
    }

    @Test
    void corpusJsonResponsesAlternate() {
        assertThat(judgeBody(Corpus.jsonSpec(), Corpus.bytes("05_json_code.rsp1.bin"), 8)).isTrue();
        assertThat(judgeBody(Corpus.jsonSpec(), Corpus.bytes("05_json_code.rsp2.bin"), 8))
                .isFalse();
    }

    @Test
    void corpusTinyWithDefaultsIsSuccess() {
        assertThat(judgeBody(ResponseSpec.defaults(), Corpus.bytes("01_tiny.rsp1.bin"), 8))
                .isTrue();
    }

    @ParameterizedTest(name = "fixed {0} {1} = {2} on ''{3}'' -> {4}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1|6|000000|000000SUCCESS|true",
                "1|6|000000|000001SUCCESS|false",
                "7|7|SUCCESS|000000SUCCESS|true",
                "7|7|000000x|xxxxxx000000x|true",
                "1|7|000000|000000SUCCESS|false", // code longer than the success value
                "1|6|000000|00000|false", // area shorter than the code: failure, not a crash
                "10|6|000000|000000|false", // begin beyond the area
                "0|6|000000|000000|false", // begin is 1-based
                "2|6|000000|x000000|true",
                "2|6|000000|x00000|false",
            })
    void fixedRange(int begin, int length, String success, String area, boolean expected) {
        ResponseSpec spec =
                Corpus.withCode(
                        CodeType.FIXED,
                        CodeLocation.BODY,
                        begin + " " + length,
                        begin,
                        length,
                        success);
        assertThat(judgeWhole(spec, area)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "xml on ''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "<r><retCode>000000</retCode></r>|true",
                "<r><retCode>000001</retCode></r>|false",
                "<r><retCode>0000000</retCode></r>|false",
                "<r><retCode>000000</r>|true", // the code ends at the next '</', whatever it closes
                "<r><retcode>000000</retcode></r>|false", // the tag is literal and case-sensitive
                "<r><code>000000</code></r>|false", // tag missing
                "<r><retCode>000000|false", // no closing '</'
                "<retCode>|false",
                "<r><retCode>111111</retCode><retCode>000000</retCode></r>|false", // first tag wins
            })
    void xml(String area, boolean expected) {
        ResponseSpec spec =
                Corpus.withCode(CodeType.XML, CodeLocation.BODY, "<retCode>", 0, 0, "000000");
        assertThat(judgeWhole(spec, area)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "json on ''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"retCode\": \"0000\"}|true",
                "{\"retCode\":\"0000\",\"x\":1}|true",
                "{\"retCode\": \"9999\"}|false",
                "{\"retCode\": 0, \"0000\": 1}|true", // the next quoted string, even a key
                "{\"retCode\": 0, \"m\": \"0000\"}|false", // ... so here it is "m"
                "{\"other\": \"0000\"}|false", // tag missing: failure (wrktcp crashed)
                "{\"retCode\": 0}|false", // no string after the tag
                "{\"retCode\": \"0000|false", // unterminated string
                "|false",
            })
    void json(String area, boolean expected) {
        ResponseSpec spec =
                Corpus.withCode(CodeType.JSON, CodeLocation.BODY, "\"retCode\"", 0, 0, "0000");
        assertThat(judgeWhole(spec, area == null ? "" : area)).isEqualTo(expected);
    }

    @Test
    void jsonTagWithoutQuotesTakesTheTextBetweenTheKeysQuotes() {
        // As wrktcp: after the bare key the next quote closes the key, so the "code" is ": ".
        ResponseSpec bare =
                Corpus.withCode(CodeType.JSON, CodeLocation.BODY, "retCode", 0, 0, ": ");
        assertThat(judgeWhole(bare, "{\"retCode\": \"0000\"}")).isTrue();
    }

    @Test
    void successCodeIsComparedAsUtf8() {
        ResponseSpec spec = Corpus.withCode(CodeType.XML, CodeLocation.BODY, "<状态>", 0, 0, "成功");
        assertThat(judgeWhole(spec, "<r><状态>成功</状态></r>")).isTrue();
        assertThat(judgeWhole(spec, "<r><状态>失败</状态></r>")).isFalse();
    }

    @Test
    void looksOnlyInsideTheGivenAreaAndLeavesIndexesAlone() {
        ResponseSpec spec =
                Corpus.withCode(CodeType.XML, CodeLocation.BODY, "<retCode>", 0, 0, "000000");
        byte[] bytes = ascii("<retCode>000000</retCode>");
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        buf.readerIndex(3);
        CodeJudge judge = new CodeJudge(spec);

        assertThat(judge.isSuccess(buf, 0, bytes.length)).isTrue();
        assertThat(judge.isSuccess(buf, 0, bytes.length - 10)).isFalse(); // '</' cut off
        assertThat(judge.isSuccess(buf, 1, bytes.length - 1)).isFalse(); // tag cut off
        assertThat(buf.readerIndex()).isEqualTo(3);
        assertThat(buf.writerIndex()).isEqualTo(bytes.length);
    }

    @Test
    void emptyAreaIsAFailureForEveryType() {
        ByteBuf empty = Unpooled.EMPTY_BUFFER;
        for (CodeType type : CodeType.values()) {
            ResponseSpec spec = Corpus.withCode(type, CodeLocation.BODY, "<c>", 1, 6, "000000");
            assertThat(new CodeJudge(spec).isSuccess(empty, 0, 0)).as(type.name()).isFalse();
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
