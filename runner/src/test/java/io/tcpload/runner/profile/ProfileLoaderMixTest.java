package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A transaction mix: [request.NAME] sections with weights, and [response.NAME] sections. */
class ProfileLoaderMixTest {
    private static final String COMMON = lines("host = 127.0.0.1", "port = 9000");

    @Test
    void namedRequestsFormAMixInFileOrderWithTheirWeights() throws Exception {
        Profile profile =
                load(COMMON
                                + lines(
                                        "[request.authorise]",
                                        "weight = 70",
                                        "req_body = AUTH",
                                        "[request.balance]",
                                        "weight = 20",
                                        "req_len_len = 4",
                                        "req_body = BAL",
                                        "[request.reversal]",
                                        "req_body = REV"))
                        .profile();

        assertThat(profile.isMix()).isTrue();
        assertThat(profile.mix())
                .extracting(NamedRequest::name)
                .containsExactly("authorise", "balance", "reversal");
        assertThat(profile.mix()).extracting(NamedRequest::weight).containsExactly(70, 20, 1);
        assertThat(profile.mix()).extracting(NamedRequest::line).containsExactly(3, 6, 10);
        assertThat(profile.mix().get(1).request().lengthWidth()).isEqualTo(4);
        assertThat(profile.mix().get(1).request().bodyTemplate()).isEqualTo("BAL");
        // The first named request stands for the profile where one request is asked for.
        assertThat(profile.request()).isEqualTo(profile.mix().get(0).request());
    }

    @Test
    void aPlainRequestIsNoMix() throws Exception {
        Profile profile = load(COMMON + lines("[request]", "req_body = x")).profile();

        assertThat(profile.isMix()).isFalse();
        assertThat(profile.mix()).isEmpty();
    }

    @Test
    void aNamedResponseJudgesItsRequestAndTakesTheRestFromResponse() throws Exception {
        Profile profile =
                load(COMMON
                                + lines(
                                        "[request.pay]",
                                        "req_body = P",
                                        "[request.ask]",
                                        "req_body = A",
                                        "[response]",
                                        "rsp_headlen = 4",
                                        "rsp_len_len = 4",
                                        "rsp_code_type = xml",
                                        "rsp_code_location_tag = <rc>",
                                        "rsp_code_success = 00",
                                        "[response.ask]",
                                        "rsp_code_success = 77"))
                        .profile();

        ResponseSpec pay = profile.mix().get(0).response();
        ResponseSpec ask = profile.mix().get(1).response();
        assertThat(pay).isEqualTo(profile.response());
        assertThat(ask.codeSuccess()).isEqualTo("77");
        assertThat(ask.codeType()).isEqualTo(CodeType.XML);
        assertThat(ask.codeTag()).isEqualTo("<rc>");
        assertThat(ask.headLength()).isEqualTo(4);
    }

    @Test
    void aNamedResponseOfAnotherCodeTypeNeedsItsOwnTag() {
        List<ProfileProblem> problems =
                errors(
                        COMMON
                                + lines(
                                        "[request.a]",
                                        "req_body = A",
                                        "[response.a]",
                                        "rsp_code_type = json"));

        assertThat(problems)
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("rsp_code_location_tag"))
                .satisfies(
                        p -> assertThat(p.message()).contains("required for rsp_code_type json"));
    }

    @Test
    void aNamedResponseMayNotChangeTheFraming() {
        List<ProfileProblem> problems =
                errors(
                        COMMON
                                + lines(
                                        "[request.a]",
                                        "req_body = A",
                                        "[response.a]",
                                        "rsp_headlen = 4",
                                        "max_response_bytes = 10"));

        assertThat(problems)
                .extracting(ProfileProblem::key)
                .containsExactly("rsp_headlen", "max_response_bytes");
        assertThat(problems).extracting(ProfileProblem::line).containsExactly(6, 7);
        assertThat(problems.get(0).message()).contains("belongs in [response]");
    }

    @Test
    void plainAndNamedRequestsDoNotMix() {
        List<ProfileProblem> problems =
                errors(COMMON + lines("[request]", "req_body = x", "[request.a]", "req_body = A"));

        assertThat(problems)
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(4))
                .satisfies(p -> assertThat(p.message()).contains("not both"));
    }

    @Test
    void aPlainRequestHasNoWeight() {
        assertThat(errors(COMMON + lines("[request]", "weight = 3", "req_body = x")))
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("weight"))
                .satisfies(p -> assertThat(p.line()).isEqualTo(4))
                .satisfies(p -> assertThat(p.message()).contains("only a named request"));
    }

    @Test
    void badWeightsNamesAndOrphanResponsesAreNamedByLine() {
        List<ProfileProblem> problems =
                errors(
                        COMMON
                                + lines(
                                        "[request.a]",
                                        "weight = 0",
                                        "req_body = A",
                                        "[request.b c]",
                                        "req_body = B",
                                        "[request.d]",
                                        "[response.zz]",
                                        "rsp_code_success = 1"));

        assertThat(problems).extracting(ProfileProblem::line).containsExactly(4, 6, 8, 9);
        assertThat(problems.get(0).key()).isEqualTo("weight");
        assertThat(problems.get(1).message()).contains("a request name is 1 to 63 letters");
        assertThat(problems.get(2).key()).isEqualTo("req_body");
        assertThat(problems.get(2).message()).contains("is required in [request.d]");
        assertThat(problems.get(3).key()).isEqualTo("[response.zz]");
        assertThat(problems.get(3).message()).contains("no [request.zz]");
    }

    @Test
    void aNamedRequestMayUseOnlyDeclaredParameters() {
        List<ProfileProblem> problems =
                errors(COMMON + lines("[request.a]", "req_body = $(NOPE)", "[parameters]"));

        assertThat(problems)
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(4))
                .satisfies(p -> assertThat(p.message()).contains("NOPE"));
    }
}
