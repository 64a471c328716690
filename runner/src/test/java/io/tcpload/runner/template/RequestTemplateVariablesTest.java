package io.tcpload.runner.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.correlate.Variables;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** $(NAME) of an extracted variable, and the values an echo check compares, as requests build. */
class RequestTemplateVariablesTest {
    private static final String PROFILE =
            String.join(
                    "\n",
                    "host = 127.0.0.1",
                    "port = 9000",
                    "[request]",
                    "req_body = <s>$(SESSION)</s><t>$(TRACE)</t><t>$(TRACE)</t>",
                    "[response]",
                    "rsp_extract = SESSION, xml, body, <session>",
                    "rsp_echo = TRACE, xml, body, <t>",
                    "[parameters]",
                    "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                    "");

    private static Profile profile() throws Exception {
        return ProfileLoader.parse(PROFILE, Path.of("v.ini")).profile();
    }

    @Test
    void aVariableIsSubstitutedAndTheFirstEchoedValueIsTaken() throws Exception {
        RequestTemplate template = RequestTemplate.compile(profile(), RunnerSlice.SINGLE);
        Variables variables = new Variables(profile().variables());
        variables.set(0, "K42".getBytes(StandardCharsets.US_ASCII));
        ByteBuf out = Unpooled.buffer();

        byte[][] sent = template.writeRequest(out, 1, variables);

        assertThat(out.toString(StandardCharsets.US_ASCII))
                .isEqualTo("00000040<s>K42</s><t>00000001</t><t>00000002</t>");
        assertThat(template.echoNames()).containsExactly("TRACE");
        assertThat(new String(sent[0], StandardCharsets.US_ASCII)).isEqualTo("00000001");
        out.release();
    }

    @Test
    void anUnsetVariableSendsNothing() throws Exception {
        RequestTemplate template = RequestTemplate.compile(profile(), RunnerSlice.SINGLE);
        ByteBuf out = Unpooled.buffer();

        assertThatThrownBy(
                        () -> template.writeRequest(out, 1, new Variables(profile().variables())))
                .isInstanceOf(MissingValueException.class)
                .hasMessage("missing value SESSION");
        assertThatThrownBy(() -> template.writeRequest(out, 1))
                .isInstanceOf(MissingValueException.class);
        assertThat(out.readableBytes()).isZero();
        out.release();
    }
}
