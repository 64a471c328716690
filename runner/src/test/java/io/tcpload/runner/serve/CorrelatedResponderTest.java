package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The demo target's answers per request: issued sessions required, echoes, codes by request. */
class CorrelatedResponderTest {
    private static final String PROFILE =
            String.join(
                    "\n",
                    "host = 127.0.0.1",
                    "port = 9000",
                    "[request.signon]",
                    "sign_on = true",
                    "req_body = <signon/>",
                    "[request.pay]",
                    "req_body = <pay><s>$(SESSION)</s><t>$(TRACE)</t></pay>",
                    "[request.rev]",
                    "req_body = <rev><s>$(SESSION)</s></rev>",
                    "[response]",
                    "rsp_code_type = xml",
                    "rsp_code_location_tag = <rc>",
                    "rsp_echo = TRACE, xml, body, <t>",
                    "[response.signon]",
                    "rsp_extract = SESSION, json, body, \"session\"",
                    "[response.rev]",
                    "rsp_code_success = 000400",
                    "[parameters]",
                    "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                    "");

    private static Profile profile(String text) throws Exception {
        return ProfileLoader.parse(text, Path.of("p.ini")).profile();
    }

    private static String answer(
            CorrelatedResponder responder, CorrelatedResponder.Session session, String body) {
        String request = String.format("%08d", body.length()) + body;
        return new String(
                responder.answer(request.getBytes(StandardCharsets.US_ASCII), session, false),
                StandardCharsets.US_ASCII);
    }

    @Test
    void issuesASessionAtSignOnAndRequiresItOnThatConnection() throws Exception {
        Profile profile = profile(PROFILE);
        assertThat(CorrelatedResponder.appliesTo(profile)).isTrue();
        CorrelatedResponder responder = CorrelatedResponder.forProfile(profile);
        CorrelatedResponder.Session one = new CorrelatedResponder.Session();
        CorrelatedResponder.Session two = new CorrelatedResponder.Session();

        String signOn = answer(responder, one, "<signon/>");
        assertThat(signOn).contains("<rc>000000</rc>", "\"session\":\"S00000001\"");
        assertThat(answer(responder, two, "<signon/>")).contains("\"session\":\"S00000002\"");

        String paid = answer(responder, one, "<pay><s>S00000001</s><t>00000042</t></pay>");
        assertThat(paid).startsWith(String.format("%08d", paid.length() - 8));
        assertThat(paid).contains("<rc>000000</rc>", "<t>00000042</t>");
        assertThat(answer(responder, one, "<rev><s>S00000001</s></rev>"))
                .contains("<rc>000400</rc>");
        assertThat(responder.rejected()).isZero();

        // Another connection's session, none at all, and a connection that never signed on.
        assertThat(answer(responder, one, "<pay><s>S00000002</s><t>1</t></pay>"))
                .contains("<rc>999999</rc>");
        assertThat(answer(responder, one, "<pay><s></s><t>1</t></pay>"))
                .contains("<rc>999999</rc>");
        assertThat(
                        answer(
                                responder,
                                new CorrelatedResponder.Session(),
                                "<rev><s>S00000001</s></rev>"))
                .contains("<rc>999999</rc>");
        assertThat(responder.rejected()).isEqualTo(3);
    }

    @Test
    void aSimpleMixStaysOnThePrebuiltAnswers() throws Exception {
        Profile plain =
                profile(
                        String.join(
                                "\n",
                                "host = 127.0.0.1",
                                "port = 9000",
                                "[request.a]",
                                "req_body = A",
                                "[request.b]",
                                "req_body = B",
                                ""));
        assertThat(CorrelatedResponder.appliesTo(plain)).isFalse();
    }

    @Test
    void whatItCannotAnswerIsSaidAtStart() throws Exception {
        Profile regex =
                profile(
                        String.join(
                                "\n",
                                "host = 127.0.0.1",
                                "port = 9000",
                                "[request]",
                                "req_body = $(S)",
                                "[response]",
                                "rsp_extract = S, regex, body, s=([0-9]+)",
                                ""));
        assertThatThrownBy(() -> CorrelatedResponder.forProfile(regex))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("by xml tag or json key only");
    }
}
