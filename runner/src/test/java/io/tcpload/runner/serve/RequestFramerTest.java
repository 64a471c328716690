package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.RequestSpec;
import io.tcpload.runner.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestFramerTest {
    private static final int MAX = 1024 * 1024;

    private static RequestFramer framer(String profile) {
        RequestSpec request =
                switch (profile) {
                    case "01_tiny" -> Corpus.tinyProfile().request();
                    case "02_xml_body" -> Corpus.xmlBodyProfile().request();
                    case "05_json_code" -> Corpus.jsonCodeProfile().request();
                    default -> throw new IllegalArgumentException(profile);
                };
        return RequestFramer.forRequest(request, MAX);
    }

    private static int length(RequestFramer framer, byte[] bytes) throws Exception {
        return framer.requestLength(bytes, 0, bytes.length);
    }

    private static int length(RequestFramer framer, String text) throws Exception {
        return length(framer, text.getBytes(StandardCharsets.UTF_8));
    }

    private static RequestFramer framer(String head, String body, int width, LengthType type) {
        return RequestFramer.forRequest(new RequestSpec(false, head, 0, body, 0, width, type), MAX);
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "02_xml_body", "05_json_code"})
    void recognisesEachCorpusRequestAsExactlyOneRequest(String profile) throws Exception {
        RequestFramer framer = framer(profile);
        for (int n = 1; n <= 3; n++) {
            byte[] request = Corpus.bytes(profile + ".req" + n + ".bin");
            assertThat(length(framer, request)).isEqualTo(request.length);
        }
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "02_xml_body", "05_json_code"})
    void everyPrefixEitherNeedsMoreOrKnowsTheWholeSize(String profile) throws Exception {
        RequestFramer framer = framer(profile);
        byte[] request = Corpus.bytes(profile + ".req1.bin");
        List<Integer> answers = new ArrayList<>();
        for (int prefix = 0; prefix < request.length; prefix++) {
            answers.add(framer.requestLength(request, 0, prefix));
        }
        assertThat(answers).containsOnly(RequestFramer.NEED_MORE, request.length);
        assertThat(answers.get(0)).isEqualTo(RequestFramer.NEED_MORE);
        assertThat(answers.get(request.length - 1)).isEqualTo(request.length);
    }

    @ParameterizedTest
    @CsvSource({"01_tiny", "02_xml_body", "05_json_code"})
    void splitsConcatenatedRequestsDeliveredInChunksOfAnySize(String profile) throws Exception {
        RequestFramer framer = framer(profile);
        byte[] one = Corpus.bytes(profile + ".req1.bin");
        byte[] stream = concat(one, Corpus.bytes(profile + ".req2.bin"));
        for (int chunk = 1; chunk <= one.length + 1; chunk++) {
            assertThat(frames(framer, stream, chunk))
                    .as("chunks of %d bytes", chunk)
                    .containsExactly(one.length, one.length);
        }
    }

    /** Feeds the stream in chunks the way the decoder does, returning the frame sizes found. */
    private static List<Integer> frames(RequestFramer framer, byte[] stream, int chunk)
            throws Exception {
        List<Integer> frames = new ArrayList<>();
        int start = 0;
        int received = 0;
        int expected = RequestFramer.NEED_MORE;
        while (received < stream.length) {
            received = Math.min(stream.length, received + chunk);
            while (true) {
                if (expected == RequestFramer.NEED_MORE) {
                    expected = framer.requestLength(stream, start, received - start);
                }
                if (expected == RequestFramer.NEED_MORE || received - start < expected) {
                    break;
                }
                frames.add(expected);
                start += expected;
                expected = RequestFramer.NEED_MORE;
            }
        }
        assertThat(start).isEqualTo(stream.length);
        return frames;
    }

    @Test
    void totalLengthCountsTheWholeRequest() throws Exception {
        RequestFramer framer =
                framer("HDR$(length)END", "<req><op>ping</op></req>", 6, LengthType.TOTAL);
        assertThat(length(framer, "HDR000036END<req><op>ping</op></req>")).isEqualTo(36);
    }

    @Test
    void lengthFieldMayBeInTheBody() throws Exception {
        RequestFramer framer = framer("", "LEN=$(length);MSG=hello", 4, LengthType.BODY);
        assertThat(length(framer, "LEN=0018;MSG=hello")).isEqualTo(18);
        assertThat(length(framer, "LEN=0018;MSG=helloLEN=00")).isEqualTo(18);
    }

    @Test
    void parametersBeforeTheLengthFieldMatchUpToTheNextLiteral() throws Exception {
        RequestFramer framer = framer("$(TERM)|$(length)|", "x$(DATA)!", 8, LengthType.BODY);
        // head "T0001|00000005|" is 15 bytes, then 5 body bytes
        assertThat(length(framer, "T0001|00000005|xabc!")).isEqualTo(20);
        assertThat(length(framer, "T0001|000000")).isEqualTo(RequestFramer.NEED_MORE);
    }

    @Test
    void headEndingInAParameterEndsAtTheNextLiteral() throws Exception {
        RequestFramer framer = framer("$(length)$(DATE)#", "$(DATA)", 4, LengthType.BODY);
        assertThat(length(framer, "000320261129#abc")).isEqualTo(16);
    }

    @Test
    void literalEndedTemplateWithoutLengthEndsWhereTheTemplateMatches() throws Exception {
        RequestFramer framer = framer("", "PING$(N)END", 8, LengthType.BODY);
        assertThat(length(framer, "PING42")).isEqualTo(RequestFramer.NEED_MORE);
        assertThat(length(framer, "PING42END")).isEqualTo(9);
        assertThat(length(framer, "PING42ENDPING7END")).isEqualTo(9);
    }

    @Test
    void parameterEndedTemplateWithoutLengthTakesWhatHasArrived() throws Exception {
        RequestFramer framer = framer("", "PING $(N)", 8, LengthType.BODY);
        assertThat(length(framer, "")).isEqualTo(RequestFramer.NEED_MORE);
        assertThat(length(framer, "PING 1234")).isEqualTo(9);
    }

    @Test
    void bytesThatCannotStartARequestAreMalformed() {
        assertThatThrownBy(() -> length(framer("01_tiny"), "GET / HTTP/1.1\r\n"))
                .isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("do not match the request template")
                .hasMessageContaining("GET / HTTP/1.1\\x0d\\x0a");
        assertThatThrownBy(() -> length(framer("02_xml_body"), "XMLHEAX"))
                .isInstanceOf(MalformedRequestException.class);
    }

    @Test
    void declaredLengthAboveTheLimitIsMalformed() {
        assertThatThrownBy(() -> length(framer("01_tiny"), "99999999"))
                .isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("99999999")
                .hasMessageContaining("limit of " + MAX);
    }

    @Test
    void totalLengthShorterThanTheFixedPartIsMalformed() {
        RequestFramer framer = framer("HDR$(length)END", "<req/>", 6, LengthType.TOTAL);
        assertThatThrownBy(() -> length(framer, "HDR000003END<req/>"))
                .isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("shorter");
    }

    @Test
    void templateNotFoundWithinTheSearchWindowIsMalformed() throws Exception {
        RequestFramer framer = framer("$(TERM)#$(length)", "x", 8, LengthType.BODY);
        byte[] almost = new byte[RequestFramer.SEARCH_WINDOW_BYTES - 1];
        Arrays.fill(almost, (byte) 'a');
        assertThat(length(framer, almost)).isEqualTo(RequestFramer.NEED_MORE);
        byte[] tooMuch = new byte[RequestFramer.SEARCH_WINDOW_BYTES + 10];
        Arrays.fill(tooMuch, (byte) 'a');
        assertThatThrownBy(() -> length(framer, tooMuch))
                .isInstanceOf(MalformedRequestException.class)
                .hasMessageContaining("within the first");
    }

    @Test
    void hostileInputWithManyPartialMatchesStaysFast() {
        RequestFramer framer = framer("$(A)<$(B)<$(length)>", "$(C)>>", 8, LengthType.BODY);
        int size = RequestFramer.SEARCH_WINDOW_BYTES - 2;
        List<byte[]> inputs =
                List.of(
                        "<a".repeat(size / 2).getBytes(StandardCharsets.US_ASCII),
                        "a".repeat(size).getBytes(StandardCharsets.US_ASCII),
                        ("<<" + "1".repeat(size - 2)).getBytes(StandardCharsets.US_ASCII));
        List<String> outcomes = new ArrayList<>();
        // Backtracking over every earlier choice would take minutes on these inputs.
        assertTimeoutPreemptively(
                Duration.ofSeconds(5),
                () -> {
                    for (int round = 0; round < 10; round++) {
                        for (byte[] input : inputs) {
                            try {
                                outcomes.add(String.valueOf(length(framer, input)));
                            } catch (MalformedRequestException e) {
                                outcomes.add("malformed");
                            }
                        }
                    }
                });
        assertThat(outcomes.subList(0, 3)).containsExactly("malformed", "-1", "malformed");
    }

    @Test
    void utf8LiteralsMatchTheirBytes() throws Exception {
        RequestFramer framer = framer("HÉAD$(length)", "données", 4, LengthType.BODY);
        byte[] request = "HÉAD0008données".getBytes(StandardCharsets.UTF_8);
        assertThat(length(framer, request)).isEqualTo(request.length);
    }

    @Test
    void httpRequestsAreNotFramedByTemplates() {
        assertThatThrownBy(() -> RequestFramer.forRequest(Corpus.httpProfile().request(), MAX))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
