package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Values carried from responses (rsp_extract, rsp_echo) and sign-on requests (sign_on). */
class ProfileLoaderCorrelationTest {
    private static final String COMMON = lines("host = 127.0.0.1", "port = 9000");
    private static final String PARAMETERS =
            lines("[parameters]", "TRACE = COUNTER, 1, 99999999, 1, %08ld");

    private static String signOnMix(String... response) {
        return COMMON
                + lines(
                        "[request.signon]",
                        "sign_on = true",
                        "req_body = <signon/>",
                        "[request.pay]",
                        "req_body = <pay><s>$(SESSION)</s><t>$(TRACE)</t></pay>",
                        "[response]",
                        "rsp_code_type = xml",
                        "rsp_code_location_tag = <rc>",
                        "rsp_echo = TRACE, xml, body, <t>",
                        "[response.signon]")
                + lines(response)
                + PARAMETERS;
    }

    @Test
    void aSignOnExtractsAValueTheMixUsesAndEchoesAreChecked() throws Exception {
        Profile profile = load(signOnMix("rsp_extract = SESSION, xml, body, <session>")).profile();

        assertThat(profile.hasSignOn()).isTrue();
        assertThat(profile.mix()).extracting(NamedRequest::signOn).containsExactly(true, false);
        assertThat(profile.variables()).containsExactly("SESSION");
        ValueRule extract = profile.mix().get(0).response().extracts().get(0);
        assertThat(extract.name()).isEqualTo("SESSION");
        assertThat(extract.type()).isEqualTo(ValueRule.Type.XML);
        assertThat(extract.location()).isEqualTo(CodeLocation.BODY);
        assertThat(extract.tag()).isEqualTo("<session>");
        assertThat(extract.line()).isEqualTo(13);
        // [response.signon] takes the echo of [response], as every key it leaves out.
        assertThat(profile.mix().get(0).response().echoes()).hasSize(1);
        assertThat(profile.mix().get(1).response().echoes().get(0).describe())
                .isEqualTo("xml <t> in body");
        assertThat(profile.mix().get(1).response().extracts()).isEmpty();
    }

    @Test
    void everyKindOfRuleIsRead() throws Exception {
        Profile profile =
                load(COMMON
                                + lines(
                                        "[request]",
                                        "req_body = x$(A)$(B)$(C)$(D)",
                                        "[response]",
                                        "rsp_headlen = 12",
                                        "rsp_extract = A, fixed, head, 9 4",
                                        "rsp_extract = B, json, body, \"key\"",
                                        "rsp_extract = C, regex, body, id=([0-9]+), more",
                                        "rsp_extract = D, xml, body, <d>"))
                        .profile();

        List<ValueRule> rules = profile.response().extracts();
        assertThat(rules).extracting(ValueRule::name).containsExactly("A", "B", "C", "D");
        assertThat(rules.get(0).fixedBegin()).isEqualTo(9);
        assertThat(rules.get(0).fixedLength()).isEqualTo(4);
        assertThat(rules.get(1).tag()).isEqualTo("\"key\"");
        // A regular expression keeps its commas.
        assertThat(rules.get(2).tag()).isEqualTo("id=([0-9]+), more");
        assertThat(profile.variables()).containsExactly("A", "B", "C", "D");
    }

    @Test
    void badRulesAreNamedWithTheirLines() {
        List<ProfileProblem> problems =
                errors(
                        COMMON
                                + lines(
                                        "[request]",
                                        "req_body = x",
                                        "[response]",
                                        "rsp_extract = S, xml, body",
                                        "rsp_extract = S, yaml, body, <s>",
                                        "rsp_extract = S, regex, body, ([a-z]",
                                        "rsp_extract = S, fixed, body, 0 4",
                                        "rsp_extract = S, fixed, head, 7 4",
                                        "rsp_extract = 9S, xml, body, <s>"));

        assertThat(problems).extracting(ProfileProblem::line).containsExactly(6, 7, 8, 9, 10, 11);
        assertThat(problems).extracting(ProfileProblem::key).containsOnly("rsp_extract");
        assertThat(problems.get(0).message()).contains("NAME, TYPE, LOCATION, TAG");
        assertThat(problems.get(1).message()).contains("fixed, xml, json or regex");
        assertThat(problems.get(2).message()).contains("regular expression '([a-z]' is not valid");
        assertThat(problems.get(3).message()).contains("'begin length'");
        assertThat(problems.get(4).message()).contains("does not fit in the 8-byte head");
        assertThat(problems.get(5).message()).contains("a value's name");
    }

    @Test
    void aVariableIsNoParameterAndAnUnknownOneIsUndeclared() {
        List<ProfileProblem> problems =
                errors(
                        COMMON
                                + lines(
                                        "[request]",
                                        "req_body = $(TRACE)$(NOPE)",
                                        "[response]",
                                        "rsp_extract = TRACE, xml, body, <t>")
                                + PARAMETERS);

        assertThat(problems).extracting(ProfileProblem::line).containsExactly(4, 6);
        assertThat(problems.get(0).message()).contains("$(NOPE) is not a declared parameter");
        assertThat(problems.get(1).message()).contains("TRACE is a parameter in [parameters]");
    }

    @Test
    void anEchoNoRequestSendsIsAnError() {
        List<ProfileProblem> problems =
                errors(
                        COMMON
                                + lines(
                                        "[request]",
                                        "req_body = plain",
                                        "[response]",
                                        "rsp_echo = TRACE, xml, body, <t>")
                                + PARAMETERS);

        assertThat(problems)
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(6))
                .satisfies(p -> assertThat(p.message()).contains("no request it judges sends"));
    }

    @Test
    void theRulesOfASignOn() {
        assertThat(
                        errors(
                                COMMON
                                        + lines(
                                                "[request.a]",
                                                "sign_on = true",
                                                "weight = 3",
                                                "req_body = A",
                                                "[request.b]",
                                                "req_body = B")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("it has no weight"));
        assertThat(errors(COMMON + lines("[request.a]", "sign_on = true", "req_body = A")))
                .singleElement()
                .satisfies(
                        p -> assertThat(p.message()).contains("every named request is a sign-on"));
        assertThat(errors(COMMON + lines("[request]", "sign_on = true", "req_body = A")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("only a named request"));
        assertThat(
                        errors(
                                COMMON
                                        + lines(
                                                "[request.a]",
                                                "sign_on = yes",
                                                "req_body = A",
                                                "[request.b]",
                                                "req_body = B")))
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("sign_on"));
    }

    @Test
    void rulesRepeatWithoutAWarningButANameOnlyOnce() throws Exception {
        LoadedProfile loaded =
                load(
                        COMMON
                                + lines(
                                        "[request]",
                                        "req_body = $(A)$(B)",
                                        "[response]",
                                        "rsp_extract = A, xml, body, <a>",
                                        "rsp_extract = B, xml, body, <b>"));
        assertThat(loaded.warnings()).isEmpty();
        assertThat(
                        errors(
                                COMMON
                                        + lines(
                                                "[request]",
                                                "req_body = $(A)",
                                                "[response]",
                                                "rsp_extract = A, xml, body, <a>",
                                                "rsp_extract = A, xml, body, <b>")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("already given"));
    }
}
