package io.tcpload.runner.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.format.IntFormat;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each profile of the wrktcp capture corpus loads to the records its captured bytes imply. */
class ProfileLoaderTest {

    @Test
    void tinyProfileUsesEveryDefault() throws Exception {
        LoadedProfile loaded = ProfileLoader.load(corpus("01_tiny.ini"));
        Profile profile = loaded.profile();

        assertThat(loaded.warnings()).isEmpty();
        assertThat(profile.source()).isEqualTo(corpus("01_tiny.ini"));
        assertThat(profile.target()).isEqualTo(new Target("127.0.0.1", 18101));
        assertThat(profile.keepAlive()).isFalse();
        assertThat(profile.request())
                .isEqualTo(
                        new RequestSpec(
                                false, "$(length)", 0, "this is a test", 6, 8, LengthType.BODY));
        assertThat(profile.response()).isEqualTo(ResponseSpec.defaults());
        assertThat(profile.parameters()).isEmpty();
        // The captured request is the 8-digit body length followed by the body.
        String body = profile.request().bodyTemplate();
        assertThat(text("01_tiny.req1.bin")).isEqualTo(String.format("%08d", bytes(body)) + body);
    }

    @Test
    void xmlProfileGivesTheCapturedBodyByteForByte() throws Exception {
        LoadedProfile loaded = ProfileLoader.load(corpus("02_xml_body.ini"));
        RequestSpec request = loaded.profile().request();

        assertThat(loaded.warnings()).isEmpty();
        assertThat(request.headTemplate()).isEqualTo("XMLHEAD$(length)20201231");
        assertThat(request.headLine()).isEqualTo(9);
        assertThat(request.bodyLine()).isEqualTo(10);
        assertThat(request.lengthWidth()).isEqualTo(8);
        assertThat(request.lengthType()).isEqualTo(LengthType.BODY);
        assertThat(request.bodyTemplate()).startsWith("\n<root>").endsWith("</root>");

        byte[] captured = Files.readAllBytes(corpus("02_xml_body.req1.bin"));
        byte[] body = request.bodyTemplate().getBytes(StandardCharsets.UTF_8);
        String headBytes = "XMLHEAD" + String.format("%08d", body.length) + "20201231";
        assertThat(new String(captured, 0, headBytes.length(), StandardCharsets.UTF_8))
                .isEqualTo(headBytes);
        assertThat(java.util.Arrays.copyOfRange(captured, headBytes.length(), captured.length))
                .isEqualTo(body);

        assertThat(loaded.profile().response())
                .isEqualTo(
                        new ResponseSpec(
                                23,
                                8,
                                8,
                                LengthType.BODY,
                                CodeType.XML,
                                CodeLocation.BODY,
                                "<retCode>",
                                0,
                                0,
                                "000000",
                                List.of(),
                                ResponseSpec.DEFAULT_MAX_RESPONSE_BYTES));
    }

    @Test
    void jsonProfileKeepsTheQuotesOfItsTag() throws Exception {
        LoadedProfile loaded = ProfileLoader.load(corpus("05_json_code.ini"));
        Profile profile = loaded.profile();

        assertThat(loaded.warnings()).isEmpty();
        String body = profile.request().bodyTemplate();
        assertThat(body).isEqualTo("{\"op\":\"query\",\"id\":\"42\"}");
        assertThat(text("05_json_code.req1.bin"))
                .isEqualTo(String.format("%08d", bytes(body)) + body);
        assertThat(profile.response().codeType()).isEqualTo(CodeType.JSON);
        assertThat(profile.response().codeTag()).isEqualTo("\"retCode\"");
        assertThat(profile.response().codeSuccess()).isEqualTo("0000");
        assertThat(profile.response().fixedCodeBegin()).isZero();
        assertThat(profile.response().headLength()).isEqualTo(8);
    }

    @Test
    void httpProfileAssemblesTheHeadLikeWrktcp() throws Exception {
        LoadedProfile loaded = ProfileLoader.load(corpus("09_http.ini"));
        Profile profile = loaded.profile();
        RequestSpec request = profile.request();

        assertThat(loaded.warnings()).isEmpty();
        assertThat(request.http()).isTrue();
        assertThat(request.headTemplate())
                .isEqualTo(
                        "POST /wrktcp HTTP/1.1\r\nHost: www.wrktcp.com\r\n"
                                + "Content-Length: $(length)\r\nX-Seq: $(SEQ)\r\n\r\n");
        assertThat(request.headLine()).isEqualTo(6);
        assertThat(request.bodyLine()).isEqualTo(13);
        assertThat(request.lengthWidth()).isZero();
        assertThat(request.bodyTemplate()).startsWith("\n{").endsWith("}\n");

        // The capture differs only where the counter was substituted.
        String captured = text("09_http.req1.bin");
        String capturedBody = captured.substring(captured.indexOf("\r\n\r\n") + 4);
        assertThat(request.bodyTemplate().replace("$(SEQ)", "000002")).isEqualTo(capturedBody);
        assertThat(captured).contains("Content-Length: " + bytes(capturedBody) + "\r\n");

        assertThat(profile.parameters())
                .containsExactly(
                        new ParameterSpec.Counter(
                                "SEQ", 26, 1, 100000, 1, IntFormat.parse("%06ld")));
        assertThat(profile.response().codeTag()).isEqualTo("\"rspCd\"");
        assertThat(profile.response().httpStatuses()).isEmpty();
    }

    static Path corpus(String name) throws URISyntaxException {
        return Path.of(ProfileLoaderTest.class.getResource("/wrktcp-corpus/" + name).toURI());
    }

    private static String text(String name) throws IOException, URISyntaxException {
        return Files.readString(corpus(name), StandardCharsets.UTF_8);
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
