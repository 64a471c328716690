package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static io.tcpload.runner.profile.ProfileTexts.tcp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import org.junit.jupiter.api.Test;

/** HEAD requests in HTTP mode, and the code of no bytes that lets the status alone judge. */
class ProfileLoaderHeadTest {
    private static String http(String requestLine, String... response) {
        return lines(
                        "[common]",
                        "host = 127.0.0.1",
                        "port = 8080",
                        "http_line = " + requestLine,
                        "[request]",
                        "req_body =",
                        "[response]")
                + (response.length == 0 ? "" : lines(response));
    }

    @Test
    void aHeadRequestLineMakesHeadRequests() throws Exception {
        assertThat(load(http("HEAD /health HTTP/1.1")).profile().request().head()).isTrue();
        assertThat(load(http("GET /health HTTP/1.1")).profile().request().head()).isFalse();
        // Methods are case-sensitive; one given by a placeholder is not known before the run.
        assertThat(load(http("head /health HTTP/1.1")).profile().request().head()).isFalse();
        assertThat(load(tcp()).profile().request().head()).isFalse();
    }

    @Test
    void aCodeOfNoBytesLetsTheStatusAloneJudge() throws Exception {
        ResponseSpec spec =
                load(http(
                                "HEAD / HTTP/1.1",
                                "rsp_code_location_tag = 1 0",
                                "rsp_code_success =",
                                "rsp_http_status = 2xx"))
                        .profile()
                        .response();

        assertThat(spec.fixedCodeLength()).isZero();
        assertThat(spec.codeSuccess()).isEmpty();
        assertThat(spec.httpStatuses()).containsExactly("2xx");
    }

    @Test
    void aCodeOfNoBytesNeedsAnEmptySuccessCode() {
        assertThat(errors(http("HEAD / HTTP/1.1", "rsp_code_location_tag = 1 0")))
                .extracting(ProfileProblem::line, ProfileProblem::key)
                .containsExactly(tuple(8, "rsp_code_success"));
        assertThat(
                        errors(
                                http(
                                        "HEAD / HTTP/1.1",
                                        "rsp_code_location_tag = 1 0",
                                        "rsp_code_success = 0000")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(9))
                .satisfies(p -> assertThat(p.message()).contains("must be empty", "'0000'"));
    }

    @Test
    void rawTcpHasNoStatusSoItsCodeNeedsBytes() {
        assertThat(errors(tcp("[response]", "rsp_code_location_tag = 1 0", "rsp_code_success =")))
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("rsp_code_location_tag"))
                .satisfies(p -> assertThat(p.message()).contains("two whole numbers above 0"));
    }
}
