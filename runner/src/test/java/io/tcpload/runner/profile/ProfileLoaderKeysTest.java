package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static io.tcpload.runner.profile.ProfileTexts.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The keys of [common], [request] and [response]: defaults, values and their checks. */
class ProfileLoaderKeysTest {

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1, 127.0.0.1",
        "localhost, localhost",
        "tcpload-target.bank.svc.cluster.local, tcpload-target.bank.svc.cluster.local",
        "::1, ::1",
        "[::1], ::1",
        "'[2001:db8::8a2e:370:7334]', 2001:db8::8a2e:370:7334",
    })
    void hostMayBeANameOrAnIpAddress(String written, String host) throws Exception {
        Profile profile =
                load(lines("host = " + written, "port = 80", "[request]", "req_body = x"))
                        .profile();

        assertThat(profile.target().host()).isEqualTo(host);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"999.1.1.1", "bad host", "-leading.dash", "[::1", "1:2:3:zz::1", "a..b"})
    void anInvalidHostIsAnError(String written) {
        assertThat(errors(lines("host = " + written, "port = 80", "[request]", "req_body = x")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(1))
                .satisfies(p -> assertThat(p.key()).isEqualTo("host"));
    }

    @Test
    void hostAndPortAreRequired() {
        List<ProfileProblem> problems = errors(lines("[request]", "req_body = x"));

        assertThat(problems).extracting(ProfileProblem::key).containsExactly("host", "port");
        assertThat(problems).extracting(ProfileProblem::line).containsExactly(0, 0);
        assertThat(problems.get(0).message()).contains("required in [common]");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"0", "65536", "83737", "-1", "80x", "", "eighty", "99999999999999999999"})
    void aPortOutside1To65535OrNotANumberIsAnError(String port) {
        assertThat(errors(lines("host = h", "port = " + port, "[request]", "req_body = x")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(2))
                .satisfies(p -> assertThat(p.key()).isEqualTo("port"))
                .satisfies(p -> assertThat(p.message()).contains("from 1 to 65535"));
    }

    @Test
    void keepaliveIsTrueOrFalse() throws Exception {
        assertThat(load(lines("keepalive = true") + tcp()).profile().keepAlive()).isTrue();
        assertThat(load(lines("keepalive = false") + tcp()).profile().keepAlive()).isFalse();
        assertThat(errors(lines("keepalive = yes") + tcp()))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("must be false or true"));
    }

    @Test
    void requestKeysAreRead() throws Exception {
        RequestSpec request =
                load(lines(
                                "host = h",
                                "port = 1",
                                "[request]",
                                "req_len_len = 4",
                                "req_len_type = total",
                                "req_head = H$(length)",
                                "req_body = body"))
                        .profile()
                        .request();

        assertThat(request)
                .isEqualTo(new RequestSpec(false, "H$(length)", 6, "body", 7, 4, LengthType.TOTAL));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "19", "8a", "-3"})
    void reqLenLenMustBe1To18(String width) {
        assertThat(errors(tcp("req_len_len = " + width)))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("from 1 to 18"));
    }

    @Test
    void reqLenLenOf18IsAccepted() throws Exception {
        assertThat(load(tcp("req_len_len = 18")).profile().request().lengthWidth()).isEqualTo(18);
    }

    @Test
    void reqLenTypeMustBeBodyOrTotal() {
        assertThat(errors(tcp("req_len_type = Body")))
                .singleElement()
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .isEqualTo("must be body or total, not 'Body'."));
    }

    @Test
    void anExplicitlyEmptyReqHeadIsAnEmptyHead() throws Exception {
        LoadedProfile loaded = load(tcp("req_head ="));

        assertThat(loaded.profile().request().headTemplate()).isEmpty();
        assertThat(loaded.profile().request().headLine()).isEqualTo(5);
    }

    @Test
    void httpModeAddsHostAndContentLengthWhenMissing() throws Exception {
        LoadedProfile loaded =
                load(
                        lines(
                                "host = h",
                                "port = 80",
                                "http_line = GET /status HTTP/1.1",
                                "[request]",
                                "req_head = Accept: */*",
                                "req_head = X-A: 1"));
        RequestSpec request = loaded.profile().request();

        assertThat(request.http()).isTrue();
        assertThat(request.headTemplate())
                .isEqualTo(
                        "GET /status HTTP/1.1\r\nAccept: */*\r\nX-A: 1\r\nHost: www.wrktcp.com\r\n"
                                + "Content-Length: $(length)\r\n\r\n");
        assertThat(request.headLine()).isEqualTo(3);
        assertThat(request.bodyTemplate()).isEmpty();
        assertThat(request.bodyLine()).isZero();
        assertThat(request.lengthWidth()).isZero();
        // Repeated req_head lines are header lines in HTTP mode, not overrides.
        assertThat(loaded.warnings()).isEmpty();
    }

    @Test
    void httpHostAndContentLengthMatchAnywhereIgnoringCase() throws Exception {
        RequestSpec request =
                load(lines(
                                "host = h",
                                "port = 80",
                                "http_line = GET /hostinfo HTTP/1.0",
                                "[request]",
                                "req_head = content-LENGTH: 2",
                                "req_body = ab"))
                        .profile()
                        .request();

        assertThat(request.headTemplate())
                .isEqualTo("GET /hostinfo HTTP/1.0\r\ncontent-LENGTH: 2\r\n\r\n");
    }

    @Test
    void httpModeIgnoresTcpFramingKeysWithWarnings() throws Exception {
        LoadedProfile loaded =
                load(
                        lines(
                                "host = h",
                                "port = 80",
                                "http_line = POST / HTTP/1.1",
                                "[request]",
                                "req_len_len = 4",
                                "req_body = {}",
                                "[response]",
                                "rsp_headlen = 30",
                                "rsp_len_beg = 3",
                                "rsp_len_len = 5",
                                "rsp_len_type = total",
                                "rsp_http_status = 2xx, 304"));

        assertThat(loaded.warnings())
                .extracting(ProfileProblem::line)
                .containsExactly(5, 8, 9, 10, 11);
        assertThat(loaded.warnings())
                .allSatisfy(w -> assertThat(w.message()).contains("ignored in HTTP mode"));
        ResponseSpec response = loaded.profile().response();
        assertThat(response.headLength()).isEqualTo(8);
        assertThat(response.lengthType()).isEqualTo(LengthType.BODY);
        assertThat(response.httpStatuses()).containsExactly("2xx", "304");
        assertThat(loaded.profile().request().lengthWidth()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "GET /", "GET / HTTP/2", "GET  / HTTP/1.1", "get / http/1.1"})
    void httpLineMustLookLikeARequestLine(String line) {
        assertThat(errors(lines("host = h", "port = 80", "http_line = " + line)))
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("http_line"))
                .satisfies(p -> assertThat(p.line()).isEqualTo(3));
    }

    @Test
    void responseKeysAreRead() throws Exception {
        ResponseSpec response =
                load(tcp(
                                "[response]",
                                "rsp_headlen = 16",
                                "rsp_len_beg = 3",
                                "rsp_len_len = 6",
                                "rsp_len_type = total",
                                "rsp_code_type = fixed",
                                "rsp_code_location = head",
                                "rsp_code_location_tag = 9 4",
                                "rsp_code_success = 0000",
                                "max_response_bytes = 1024"))
                        .profile()
                        .response();

        assertThat(response)
                .isEqualTo(
                        new ResponseSpec(
                                16,
                                3,
                                6,
                                LengthType.TOTAL,
                                CodeType.FIXED,
                                CodeLocation.HEAD,
                                "9 4",
                                9,
                                4,
                                "0000",
                                List.of(),
                                1024));
    }

    @ParameterizedTest
    @CsvSource({
        "rsp_headlen = 1, of at least 2",
        "rsp_len_beg = 0, above 0",
        "rsp_len_len = 11, from 1 to 10",
        "rsp_len_len = 0, from 1 to 10",
        "rsp_len_type = all, must be body or total",
        "rsp_code_type = regex, must be fixed or json or xml",
        "rsp_code_location = tail, must be body or head",
        "max_response_bytes = 0, above 0",
        "max_response_bytes = 16MiB, above 0",
        "rsp_code_location_tag = 1, two whole numbers",
        "rsp_code_location_tag = 0 6, two whole numbers",
        "rsp_code_location_tag = a b, two whole numbers",
    })
    void badResponseValuesAreErrors(String line, String expected) {
        assertThat(errors(tcp("[response]", line)))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(6))
                .satisfies(p -> assertThat(p.message()).contains(expected));
    }

    @Test
    void theLengthFieldMustFitInTheHead() {
        assertThat(errors(tcp("[response]", "rsp_headlen = 10", "rsp_len_beg = 4")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(7))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .isEqualTo(
                                                "the length field (bytes 4 to 11) does not fit in the"
                                                        + " 10-byte head (rsp_headlen)."));
    }

    @Test
    void aFixedCodeInTheHeadMustFitInTheHead() {
        assertThat(
                        errors(
                                tcp(
                                        "[response]",
                                        "rsp_headlen = 12",
                                        "rsp_code_location = head",
                                        "rsp_code_location_tag = 9 6")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(8))
                .satisfies(p -> assertThat(p.message()).contains("bytes 9 to 14"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"xml", "json"})
    void xmlAndJsonNeedATag(String type) {
        assertThat(errors(tcp("[response]", "rsp_code_type = " + type)))
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("rsp_code_location_tag"))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .contains("is required for rsp_code_type " + type));
        assertThat(errors(tcp("[response]", "rsp_code_type = " + type, "rsp_code_location_tag =")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(7));
    }

    @Test
    void httpStatusIsIgnoredWithAWarningInTcpMode() throws Exception {
        LoadedProfile loaded = load(tcp("[response]", "rsp_http_status = 200"));

        assertThat(loaded.profile().response().httpStatuses()).isEmpty();
        assertThat(loaded.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.message()).contains("only applies in HTTP mode"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2xxx", "ok", "200,", "2y0"})
    void badHttpStatusesAreErrors(String statuses) {
        String text =
                lines("host = h", "port = 80", "http_line = GET / HTTP/1.1", "[response]")
                        + lines("rsp_http_status = " + statuses);

        assertThat(errors(text))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("such as 200 or 2xx"));
    }
}
