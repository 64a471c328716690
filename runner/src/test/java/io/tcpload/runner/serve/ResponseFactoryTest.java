package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.profile.CodeLocation;
import io.tcpload.runner.profile.CodeType;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResponseFactoryTest {

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static ResponseSpec spec(
            int headLength,
            int lengthBegin,
            int lengthWidth,
            LengthType lengthType,
            CodeType type,
            CodeLocation location,
            String tag,
            int fixedBegin,
            int fixedLength,
            String success,
            List<String> statuses) {
        return new ResponseSpec(
                headLength,
                lengthBegin,
                lengthWidth,
                lengthType,
                type,
                location,
                tag,
                fixedBegin,
                fixedLength,
                success,
                statuses,
                ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES);
    }

    private static Profile tcp(ResponseSpec response) {
        return Corpus.profile(Corpus.tinyProfile().request(), response);
    }

    private static Profile http(ResponseSpec response) {
        return Corpus.profile(Corpus.httpProfile().request(), response);
    }

    /** Frames both responses, and checks the judge reads the success and the failure code. */
    private static void assertJudged(Profile profile, ResponseFactory factory) {
        ResponseSpec spec = profile.response();
        TestJudge.Framed success = TestJudge.frame(spec, factory.response(true));
        TestJudge.Framed failure = TestJudge.frame(spec, factory.response(false));
        assertThat(TestJudge.code(spec, success.head(), success.body()))
                .isEqualTo(spec.codeSuccess());
        assertThat(TestJudge.code(spec, failure.head(), failure.body()))
                .isEqualTo(factory.failureCode())
                .isNotEqualTo(spec.codeSuccess());
    }

    @Test
    void tinyResponseIsTheCorpusResponse() {
        ResponseFactory factory = ResponseFactory.forProfile(Corpus.tinyProfile());
        assertThat(text(factory.response(true))).isEqualTo(text(Corpus.bytes("01_tiny.rsp1.bin")));
        assertThat(text(factory.response(false))).isEqualTo("00000013999999FAILURE");
        assertJudged(Corpus.tinyProfile(), factory);
    }

    @Test
    void xmlResponseHasTheCorpusFraming() {
        Profile profile = Corpus.xmlBodyProfile();
        ResponseFactory factory = ResponseFactory.forProfile(profile);
        byte[] ours = factory.response(true);
        byte[] theirs = Corpus.bytes("02_xml_body.rsp1.bin");
        ResponseSpec spec = profile.response();
        assertThat(ours).hasSameSizeAs(theirs);
        assertThat(TestJudge.declaredSize(spec, ours)).isEqualTo(ours.length);
        assertThat(TestJudge.declaredSize(spec, theirs)).isEqualTo(theirs.length);
        assertThat(text(ours)).endsWith("<root><head><retCode>000000</retCode></head></root>");
        assertJudged(profile, factory);
    }

    @Test
    void jsonResponseHasTheCorpusFraming() {
        Profile profile = Corpus.jsonCodeProfile();
        ResponseFactory factory = ResponseFactory.forProfile(profile);
        ResponseSpec spec = profile.response();
        byte[] theirs = Corpus.bytes("05_json_code.rsp1.bin");
        assertThat(TestJudge.declaredSize(spec, theirs)).isEqualTo(theirs.length);
        assertThat(text(factory.response(true)))
                .isEqualTo("00000029{\"retCode\":\"0000\",\"msg\":\"ok\"}");
        assertThat(factory.failureCode()).isEqualTo("9999");
        assertJudged(profile, factory);
    }

    @Test
    void httpResponseIsTheCorpusResponse() {
        Profile profile = Corpus.httpProfile();
        ResponseFactory factory = ResponseFactory.forProfile(profile);
        assertThat(text(factory.response(true))).isEqualTo(text(Corpus.bytes("09_http.rsp1.bin")));
        assertThat(TestJudge.httpCode(profile.response(), factory.response(false)))
                .isEqualTo("9999");
        assertThat(text(factory.response(true, ResponseFactory.Connection.CLOSE)))
                .contains("\r\nConnection: close\r\n\r\n{");
        assertThat(text(factory.response(true, ResponseFactory.Connection.KEEP_ALIVE)))
                .contains("\r\nConnection: keep-alive\r\n\r\n{");
    }

    @Test
    void httpStatusFollowsTheAcceptedStatuses() {
        ResponseSpec serverError =
                spec(
                        8,
                        1,
                        8,
                        LengthType.BODY,
                        CodeType.JSON,
                        CodeLocation.BODY,
                        "\"c\"",
                        0,
                        0,
                        "0",
                        List.of("5xx"));
        assertThat(text(ResponseFactory.forProfile(http(serverError)).response(true)))
                .startsWith("HTTP/1.1 500 Internal Server Error\r\n");
        ResponseSpec anyTwo =
                spec(
                        8,
                        1,
                        8,
                        LengthType.BODY,
                        CodeType.JSON,
                        CodeLocation.BODY,
                        "\"c\"",
                        0,
                        0,
                        "0",
                        List.of("404", "2xx"));
        assertThat(text(ResponseFactory.forProfile(http(anyTwo)).response(true)))
                .startsWith("HTTP/1.1 200 OK\r\n");
    }

    @Test
    void httpCodeInTheHeadGoesInAHeader() {
        ResponseSpec spec =
                spec(
                        8,
                        1,
                        8,
                        LengthType.BODY,
                        CodeType.XML,
                        CodeLocation.HEAD,
                        "<rc>",
                        0,
                        0,
                        "00",
                        List.of());
        byte[] response = ResponseFactory.forProfile(http(spec)).response(true);
        assertThat(text(response)).contains("\r\nX-Result: <rc>00</rc>\r\n");
        assertThat(TestJudge.httpCode(spec, response)).isEqualTo("00");
    }

    @Test
    void fixedCodeLaterInTheBodyIsPadded() {
        Profile profile =
                tcp(
                        spec(
                                8,
                                1,
                                8,
                                LengthType.BODY,
                                CodeType.FIXED,
                                CodeLocation.BODY,
                                "4 2",
                                4,
                                2,
                                "OK",
                                List.of()));
        ResponseFactory factory = ResponseFactory.forProfile(profile);
        assertThat(text(factory.response(true))).isEqualTo("00000012   OKSUCCESS");
        assertJudged(profile, factory);
    }

    @Test
    void fixedCodeInTheHeadSitsBesideTheLengthField() {
        Profile profile =
                tcp(
                        spec(
                                16,
                                1,
                                8,
                                LengthType.TOTAL,
                                CodeType.FIXED,
                                CodeLocation.HEAD,
                                "9 4",
                                9,
                                4,
                                "0000",
                                List.of()));
        ResponseFactory factory = ResponseFactory.forProfile(profile);
        assertThat(text(factory.response(true))).isEqualTo("0000002300000000SUCCESS");
        assertThat(text(factory.response(false))).isEqualTo("0000002399990000FAILURE");
        assertJudged(profile, factory);
    }

    @Test
    void codeOverlappingTheLengthFieldFailsClearly() {
        Profile profile =
                tcp(
                        spec(
                                16,
                                1,
                                8,
                                LengthType.BODY,
                                CodeType.FIXED,
                                CodeLocation.HEAD,
                                "7 4",
                                7,
                                4,
                                "0000",
                                List.of()));
        assertThatThrownBy(() -> ResponseFactory.forProfile(profile))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("overlaps the length field")
                .hasMessageContaining("bytes 7..10")
                .hasMessageContaining("bytes 1..8");
    }

    @Test
    void xmlAndJsonCodesInTheHeadFitBesideTheLengthField() {
        Profile xml =
                tcp(
                        spec(
                                30,
                                1,
                                6,
                                LengthType.BODY,
                                CodeType.XML,
                                CodeLocation.HEAD,
                                "<rc>",
                                0,
                                0,
                                "000",
                                List.of()));
        assertJudged(xml, ResponseFactory.forProfile(xml));
        Profile json =
                tcp(
                        spec(
                                30,
                                25,
                                6,
                                LengthType.BODY,
                                CodeType.JSON,
                                CodeLocation.HEAD,
                                "\"rc\"",
                                0,
                                0,
                                "000",
                                List.of()));
        ResponseFactory factory = ResponseFactory.forProfile(json);
        assertThat(text(factory.response(true))).startsWith("{\"rc\":\"000\"}");
        assertJudged(json, factory);
        Profile tooSmall =
                tcp(
                        spec(
                                10,
                                1,
                                8,
                                LengthType.BODY,
                                CodeType.XML,
                                CodeLocation.HEAD,
                                "<rc>",
                                0,
                                0,
                                "000",
                                List.of()));
        assertThatThrownBy(() -> ResponseFactory.forProfile(tooSmall))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no room");
    }

    @Test
    void jsonTagWithoutQuotesIsQuoted() {
        Profile profile =
                tcp(
                        spec(
                                8,
                                1,
                                8,
                                LengthType.BODY,
                                CodeType.JSON,
                                CodeLocation.BODY,
                                "retCode",
                                0,
                                0,
                                "00",
                                List.of()));
        assertThat(text(ResponseFactory.forProfile(profile).response(true)))
                .endsWith("{\"retCode\":\"00\",\"msg\":\"ok\"}");
    }

    @Test
    void xmlClosingTagIsBuiltFromTheTagName() {
        assertThat(ResponseFactory.xmlElementName("<retCode>")).isEqualTo("retCode");
        assertThat(ResponseFactory.xmlElementName("<r:code a=\"1\">")).isEqualTo("r:code");
        assertThat(ResponseFactory.xmlElementName("code=")).isEqualTo("code");
    }

    @Test
    void failureCodeHasTheSameLengthAndDiffersEverywhere() {
        assertThat(text(ResponseFactory.failureCode(bytes("000000")))).isEqualTo("999999");
        assertThat(text(ResponseFactory.failureCode(bytes("A9b")))).isEqualTo("989");
        assertThat(text(ResponseFactory.failureCode(bytes("")))).isEqualTo("9");
    }

    @Test
    void totalLengthCountsTheHead() {
        Profile profile =
                tcp(
                        spec(
                                8,
                                1,
                                8,
                                LengthType.TOTAL,
                                CodeType.FIXED,
                                CodeLocation.BODY,
                                "1 6",
                                1,
                                6,
                                "000000",
                                List.of()));
        assertThat(text(ResponseFactory.forProfile(profile).response(true)))
                .isEqualTo("00000021000000SUCCESS");
    }

    @Test
    void impossibleFramingFailsClearly() {
        Profile narrow =
                tcp(
                        spec(
                                2,
                                1,
                                1,
                                LengthType.BODY,
                                CodeType.FIXED,
                                CodeLocation.BODY,
                                "1 6",
                                1,
                                6,
                                "000000",
                                List.of()));
        assertThatThrownBy(() -> ResponseFactory.forProfile(narrow))
                .hasMessageContaining("does not fit in the 1-digit length field");
        Profile outside =
                tcp(
                        spec(
                                8,
                                5,
                                8,
                                LengthType.BODY,
                                CodeType.FIXED,
                                CodeLocation.BODY,
                                "1 6",
                                1,
                                6,
                                "000000",
                                List.of()));
        assertThatThrownBy(() -> ResponseFactory.forProfile(outside))
                .hasMessageContaining("does not fit in the 8-byte head");
        Profile mismatch =
                tcp(
                        spec(
                                8,
                                1,
                                8,
                                LengthType.BODY,
                                CodeType.FIXED,
                                CodeLocation.BODY,
                                "1 4",
                                1,
                                4,
                                "000000",
                                List.of()));
        assertThatThrownBy(() -> ResponseFactory.forProfile(mismatch))
                .hasMessageContaining("no response could succeed");
    }

    @Test
    void responsesAreCopies() {
        ResponseFactory factory = ResponseFactory.forProfile(Corpus.tinyProfile());
        byte[] first = factory.response(true);
        Arrays.fill(first, (byte) 'x');
        assertThat(text(factory.response(true))).isEqualTo("00000013000000SUCCESS");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
