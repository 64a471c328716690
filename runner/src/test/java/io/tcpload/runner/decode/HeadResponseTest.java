package io.tcpload.runner.decode;

import static io.tcpload.runner.codec.ResponseOutcome.FAILURE_NON_2XX_3XX;
import static io.tcpload.runner.codec.ResponseOutcome.SUCCESS;
import static io.tcpload.runner.decode.DecoderHarness.ascii;
import static io.tcpload.runner.decode.DecoderHarness.concat;
import static io.tcpload.runner.decode.DecoderHarness.oneByteAtATime;
import static io.tcpload.runner.decode.DecoderHarness.run;
import static io.tcpload.runner.decode.DecoderHarness.splitAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.codec.ResponseFramingException;
import io.tcpload.runner.profile.ResponseSpec;
import io.tcpload.runner.testing.Corpus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Answers to HEAD requests announce a body they do not carry (RFC 9110 9.3.2): each ends at its
 * blank line, whatever its Content-Length or Transfer-Encoding say, and the connection carries on.
 */
class HeadResponseTest {
    private static final byte[] THREE_ANSWERS =
            concat(
                    ascii("HTTP/1.1 200 OK\r\nContent-Length: 13\r\nETag: \"x\"\r\n\r\n"),
                    ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
                    ascii("HTTP/1.1 404 Not Found\r\nContent-Length: 153\r\n\r\n"));

    private static ResponseSpec statusAlone() throws Exception {
        return Corpus.parse(
                        String.join(
                                "\n",
                                "[common]",
                                "host = 127.0.0.1",
                                "port = 8080",
                                "http_line = HEAD /index.html HTTP/1.1",
                                "[request]",
                                "req_body =",
                                "[response]",
                                "rsp_code_location_tag = 1 0",
                                "rsp_code_success =",
                                "rsp_http_status = 2xx",
                                ""))
                .response();
    }

    private static ResponseCodecs head(ResponseSpec spec) {
        return ResponseCodecs.of(spec, true, false).answeringHead();
    }

    @Test
    void eachAnswerEndsAtItsBlankLineHoweverTheBytesAreCut() throws Exception {
        ResponseCodecs codecs = head(statusAlone());

        assertThat(run(codecs.newDecoder(), List.of(THREE_ANSWERS), false))
                .containsExactly(SUCCESS, SUCCESS, FAILURE_NON_2XX_3XX);
        for (int cut = 1; cut < THREE_ANSWERS.length; cut++) {
            assertThat(run(codecs.newDecoder(), splitAt(THREE_ANSWERS, cut), false))
                    .as("cut at %d", cut)
                    .containsExactly(SUCCESS, SUCCESS, FAILURE_NON_2XX_3XX);
        }
        assertThat(run(codecs.newDecoder(), oneByteAtATime(THREE_ANSWERS), false))
                .containsExactly(SUCCESS, SUCCESS, FAILURE_NON_2XX_3XX);
    }

    @Test
    void theSameBytesAnsweringGetAreMisframed() throws Exception {
        // Without knowing the requests were HEAD, the first answer takes the next one's first 13
        // bytes for its body: this is why the method must reach the decoder.
        ResponseCodecs get = ResponseCodecs.of(statusAlone(), true, false);
        assertThatThrownBy(() -> run(get.newDecoder(), List.of(THREE_ANSWERS), false))
                .isInstanceOf(ResponseFramingException.class)
                .hasMessageContaining("malformed HTTP status line");
    }

    @Test
    void aHugeAnnouncedLengthIsNoBodyToRefuse() throws Exception {
        // The size of the file a HEAD asks about, far above max_response_bytes (16 MiB by default).
        byte[] answer = ascii("HTTP/1.1 200 OK\r\nContent-Length: 10737418240\r\n\r\n");
        assertThat(run(head(statusAlone()).newDecoder(), List.of(answer, answer), false))
                .containsExactly(SUCCESS, SUCCESS);
    }

    @Test
    void aLengthTooLongToHoldIsStillAFramingError() throws Exception {
        byte[] answer = ascii("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n");
        assertThatThrownBy(() -> run(head(statusAlone()).newDecoder(), List.of(answer), false))
                .hasMessageContaining("Content-Length")
                .hasMessageContaining("too large");
    }

    @Test
    void onlyHttpHasHeadRequests() {
        assertThatThrownBy(
                        () ->
                                ResponseCodecs.of(Corpus.tinyProfile().response(), false, false)
                                        .answeringHead())
                .isInstanceOf(IllegalStateException.class);
    }
}
