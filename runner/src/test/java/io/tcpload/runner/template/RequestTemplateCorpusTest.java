package io.tcpload.runner.template;

import static io.tcpload.runner.testing.Corpus.build;
import static io.tcpload.runner.testing.Corpus.http;
import static io.tcpload.runner.testing.Corpus.profile;
import static io.tcpload.runner.testing.Corpus.raw;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.testing.Corpus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The first three requests of each captured wrktcp profile, byte for byte. */
class RequestTemplateCorpusTest {

    @Test
    void tinyDefaults() {
        Profile profile = profile(raw("$(length)", "this is a test", 8, LengthType.BODY));

        assertFirstThreeRequestsMatch(profile, "01_tiny", RequestTemplate.Kind.STATIC);
    }

    @Test
    void xmlHeadWithLengthInTheMiddleAndContinuedBody() {
        byte[] captured = Corpus.bytes("02_xml_body.req1.bin");
        String head = "XMLHEAD$(length)20201231";
        // The head renders to 7 + 8 + 8 bytes; everything after it is the body template.
        String body =
                new String(
                        Arrays.copyOfRange(captured, 23, captured.length), StandardCharsets.UTF_8);
        assertThat(body).startsWith("\n<root>\n").endsWith("</root>").hasSize(139);

        Profile profile = profile(raw(head, body, 8, LengthType.BODY));

        assertFirstThreeRequestsMatch(profile, "02_xml_body", RequestTemplate.Kind.STATIC);
    }

    @Test
    void jsonBody() {
        Profile profile =
                profile(raw("$(length)", "{\"op\":\"query\",\"id\":\"42\"}", 8, LengthType.BODY));

        assertFirstThreeRequestsMatch(profile, "05_json_code", RequestTemplate.Kind.STATIC);
    }

    @Test
    void httpWithACounterInHeadAndBody() {
        String head =
                "POST /wrktcp HTTP/1.1\r\n"
                        + "Host: www.wrktcp.com\r\n"
                        + "Content-Length: $(length)\r\n"
                        + "X-Seq: $(SEQ)\r\n"
                        + "\r\n";
        String body = "\n{\n    \"name\":\"test\",\n    \"msgId\":\"$(SEQ)\"\n}\n";
        Profile profile =
                profile(
                        http(head, body),
                        new ParameterSpec.Counter(
                                "SEQ", 0, 1, 100000, 1, IntFormat.parse("%06ld")));

        assertFirstThreeRequestsMatch(profile, "09_http", RequestTemplate.Kind.PER_REQUEST);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gbk", "latin1"})
    void profilesInOtherEncodingsKeepTheirBytes(String name) throws Exception {
        RequestTemplate template =
                RequestTemplate.compile(Corpus.encodedProfile(name, 9), RunnerSlice.SINGLE);

        assertThat(template.kind()).isEqualTo(RequestTemplate.Kind.PER_REQUEST);
        List<byte[]> expected = Corpus.encodedRequests(name);
        for (int n = 0; n < 3; n++) {
            assertThat(build(template, 10001))
                    .as("%s request %d", name, n + 1)
                    .isEqualTo(expected.get(n));
        }
    }

    private static void assertFirstThreeRequestsMatch(
            Profile profile, String name, RequestTemplate.Kind expectedKind) {
        RequestTemplate template = RequestTemplate.compile(profile, RunnerSlice.SINGLE);

        assertThat(template.kind()).isEqualTo(expectedKind);
        for (int n = 1; n <= 3; n++) {
            byte[] expected = Corpus.bytes(name + ".req" + n + ".bin");
            byte[] actual = build(template, 10001);
            // Text first for a readable difference, then the exact bytes.
            assertThat(new String(actual, StandardCharsets.UTF_8))
                    .as("%s request %d", name, n)
                    .isEqualTo(new String(expected, StandardCharsets.UTF_8));
            assertThat(actual).as("%s request %d", name, n).isEqualTo(expected);
        }
    }
}
