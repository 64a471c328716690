package io.tcpload.runner.template;

import static io.tcpload.runner.testing.Corpus.buildText;
import static io.tcpload.runner.testing.Corpus.dataFile;
import static io.tcpload.runner.testing.Corpus.http;
import static io.tcpload.runner.testing.Corpus.profile;
import static io.tcpload.runner.testing.Corpus.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.RequestSpec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The {@code $(length)} field: where it may be, what it counts, how wide it is. */
class RequestTemplateLengthTest {

    private static String single(RequestSpec request) {
        return buildText(RequestTemplate.compile(profile(request), RunnerSlice.SINGLE), 1);
    }

    @Test
    void totalModeCountsHeadBodyAndTheFieldItself() {
        assertThat(single(raw("HDR$(length)END", "<req><op>ping</op></req>", 6, LengthType.TOTAL)))
                .isEqualTo("HDR000036END<req><op>ping</op></req>");
    }

    @Test
    void lengthInsideTheBodyWithAnEmptyHead() {
        assertThat(single(raw("", "LEN=$(length);MSG=hello", 4, LengthType.BODY)))
                .isEqualTo("LEN=0018;MSG=hello");
    }

    @Test
    void widthFourWithTheDefaultHead() {
        assertThat(single(raw("$(length)", "this is a test", 4, LengthType.BODY)))
                .isEqualTo("0014this is a test");
    }

    @Test
    void everyOccurrenceGetsTheValue() {
        assertThat(single(raw("$(length)|$(length)", "abc$(length)", 3, LengthType.BODY)))
                .isEqualTo("006|006abc006");
    }

    @Test
    void utf8BodiesCountBytesNotCharacters() {
        assertThat(single(raw("$(length)", "\u00e9t\u00e9", 4, LengthType.BODY)))
                .isEqualTo("0005\u00e9t\u00e9");
    }

    @Test
    void noLengthFieldMeansNoLength() {
        assertThat(single(raw("HEAD", "body", 8, LengthType.BODY))).isEqualTo("HEADbody");
    }

    @Test
    void httpContentLengthFollowsABodyThatGrowsPastItsTemplateDigits() {
        // The template body "x=$(DATA)" is 9 bytes; its lines make it 7, 157 and 10007 bytes.
        RequestTemplate template =
                RequestTemplate.compile(
                        profile(
                                http(
                                        "POST / HTTP/1.1\r\nContent-Length: $(length)\r\n\r\n",
                                        "x=$(DATA)"),
                                dataFile(
                                        "DATA",
                                        "short\n"
                                                + "a".repeat(155)
                                                + "\n"
                                                + "b".repeat(10005)
                                                + "\n")),
                        RunnerSlice.SINGLE);

        assertThat(buildText(template, 1))
                .isEqualTo("POST / HTTP/1.1\r\nContent-Length: 7\r\n\r\nx=short");
        assertThat(buildText(template, 1))
                .startsWith("POST / HTTP/1.1\r\nContent-Length: 157\r\n\r\nx=aaa")
                .hasSize(40 + 157);
        assertThat(buildText(template, 1))
                .startsWith("POST / HTTP/1.1\r\nContent-Length: 10007\r\n\r\nx=bbb")
                .hasSize(42 + 10007);
    }

    @Test
    void widthZeroTotalFindsTheDigitsThatCountThemselves() {
        // 8 other bytes + 1 digit = 9; 9 other bytes + 1 digit = 10 needs 2 digits: 11;
        // 98 other bytes + 2 digits = 100 needs 3 digits: 101.
        assertThat(
                        single(
                                new RequestSpec(
                                        true, "L=$(length);", 0, "01234", 0, 0, LengthType.TOTAL)))
                .isEqualTo("L=9;01234");
        assertThat(
                        single(
                                new RequestSpec(
                                        true, "L=$(length);", 0, "012345", 0, 0, LengthType.TOTAL)))
                .isEqualTo("L=11;012345");
        assertThat(
                        single(
                                new RequestSpec(
                                        true,
                                        "L=$(length);",
                                        0,
                                        "x".repeat(95),
                                        0,
                                        0,
                                        LengthType.TOTAL)))
                .startsWith("L=101;")
                .hasSize(101);
    }

    @Test
    void aRequestThatVariesInNothingAndDoesNotFitIsRefusedBeforeTheRun() {
        assertThatThrownBy(
                        () ->
                                RequestTemplate.compile(
                                        profile(
                                                raw(
                                                        "$(length)",
                                                        "x".repeat(100),
                                                        2,
                                                        LengthType.BODY)),
                                        RunnerSlice.SINGLE))
                .isInstanceOf(IllegalArgumentException.class)
                .isNotInstanceOf(RequestBuildException.class)
                .hasMessageContaining(
                        "$(length) of 100 body bytes does not fit req_len_len = 2 digits (at most"
                                + " 99), and nothing in the request varies: no request could be"
                                + " sent");
    }

    @Test
    void aDynamicRequestThatOutgrowsItsWidthFailsOnlyForThatRequest() {
        RequestTemplate template =
                RequestTemplate.compile(
                        profile(
                                raw("$(length)", "$(LINE)", 2, LengthType.BODY),
                                dataFile("LINE", "12345\n" + "9".repeat(789) + "\nok\n")),
                        RunnerSlice.SINGLE);
        ByteBuf out = Unpooled.buffer();

        template.writeRequest(out, 1);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("0512345");
        assertThatThrownBy(() -> template.writeRequest(out, 1))
                .isInstanceOf(RequestBuildException.class)
                .hasMessage(
                        "$(length) of 789 body bytes does not fit req_len_len = 2 digits (at most 99)");
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("0512345");
        template.writeRequest(out, 1);
        assertThat(out.toString(StandardCharsets.US_ASCII)).isEqualTo("051234502ok");
    }

    @Test
    void totalModeOverflowCountsTheWholeRequest() {
        RequestTemplate template =
                RequestTemplate.compile(
                        profile(raw("$(length)", "x".repeat(96), 3, LengthType.TOTAL)),
                        RunnerSlice.SINGLE);
        assertThat(buildText(template, 1)).startsWith("099x");

        assertThatThrownBy(
                        () ->
                                RequestTemplate.compile(
                                        profile(
                                                raw(
                                                        "$(length)",
                                                        "x".repeat(997),
                                                        3,
                                                        LengthType.TOTAL)),
                                        RunnerSlice.SINGLE))
                .hasMessageContaining(
                        "$(length) of 1000 request bytes does not fit req_len_len = 3 digits (at"
                                + " most 999)");
    }

    @Test
    void aLengthThatDoesNotFitCarriesNoStackTrace() {
        RequestTemplate perRequest =
                RequestTemplate.compile(
                        profile(
                                raw("$(length)", "$(LINE)", 2, LengthType.BODY),
                                dataFile("LINE", "9".repeat(100) + "\n")),
                        RunnerSlice.SINGLE);

        // A run may fail every request this way: filling in a stack each time would cost more
        // than the request, and no user is helped by one.
        assertThatThrownBy(() -> perRequest.writeRequest(Unpooled.buffer(), 1))
                .isInstanceOf(RequestBuildException.class)
                .satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
    }
}
