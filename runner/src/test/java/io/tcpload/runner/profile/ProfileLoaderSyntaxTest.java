package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static io.tcpload.runner.profile.ProfileTexts.tcp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The INI syntax: lines, comments, continuation, sections, keys, aliases and repeats. */
class ProfileLoaderSyntaxTest {

    @Test
    void crlfFilesLoadWithoutCarriageReturnsInValues() throws Exception {
        String text = "host = 127.0.0.1\r\nport = 9000\r\n\r\n[request]\r\nreq_body = a\\\r\nb\r\n";

        Profile profile = load(text).profile();

        assertThat(profile.target()).isEqualTo(new Target("127.0.0.1", 9000));
        assertThat(profile.request().bodyTemplate()).isEqualTo("a\nb");
    }

    @Test
    void whitespaceOnlyLinesAndIndentedCommentsAreSkipped() throws Exception {
        String text =
                lines(
                        "   ",
                        "\t",
                        "  # an indented comment",
                        "\t# a tabbed comment",
                        "host = 127.0.0.1",
                        "port = 9000",
                        "[request]",
                        "req_body = hello");

        LoadedProfile loaded = load(text);

        assertThat(loaded.profile().request().bodyTemplate()).isEqualTo("hello");
        assertThat(loaded.warnings()).isEmpty();
    }

    @Test
    void valuesKeepHashesEqualsSignsAndQuotes() throws Exception {
        RequestSpec request =
                load(lines(
                                "host = h",
                                "port = 1",
                                "[request]",
                                "req_body = \"a=b\" # not a comment"))
                        .profile()
                        .request();

        assertThat(request.bodyTemplate()).isEqualTo("\"a=b\" # not a comment");
    }

    @Test
    void keysAndValuesAreTrimmedOfSpacesAndTabs() throws Exception {
        Profile profile =
                load(lines("\thost\t=\t10.0.0.1 \t", "  port=  9000", "[request]", "req_body=x\t"))
                        .profile();

        assertThat(profile.target()).isEqualTo(new Target("10.0.0.1", 9000));
        assertThat(profile.request().bodyTemplate()).isEqualTo("x");
    }

    @Test
    void sectionHeadersAllowSpacesInsideAndIgnoreTextAfterTheBracket() throws Exception {
        String text =
                lines(
                        "[ common ] anything here",
                        "host = h",
                        "port = 1",
                        "[request] # comment",
                        "req_body = x",
                        "[\tresponse\t]",
                        "rsp_code_success = 0000");

        Profile profile = load(text).profile();

        assertThat(profile.response().codeSuccess()).isEqualTo("0000");
    }

    @Test
    void keysBeforeAnyHeaderAreInCommon() throws Exception {
        assertThat(load(tcp()).profile().target()).isEqualTo(new Target("127.0.0.1", 9000));
    }

    @Test
    void continuedBodyStartsWithNewlineAndKeepsHashLinesAndIndentation() throws Exception {
        String text =
                lines(
                        "host = h",
                        "port = 1",
                        "[request]",
                        "req_body = \\",
                        "  <a>\\",
                        "# kept\\",
                        "  </a>\\",
                        "",
                        "[response]");

        RequestSpec request = load(text).profile().request();

        assertThat(request.bodyTemplate()).isEqualTo("\n  <a>\n# kept\n  </a>\n");
        assertThat(request.bodyLine()).isEqualTo(4);
    }

    @Test
    void aCommentEndingInBackslashSwallowsTheNextLineWithAWarning() throws Exception {
        LoadedProfile loaded = load(tcp("# note \\", "req_len_len = 99"));

        assertThat(loaded.profile().request().lengthWidth()).isEqualTo(8);
        assertThat(loaded.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.line()).isEqualTo(5))
                .satisfies(w -> assertThat(w.message()).contains("part of the comment"));
    }

    @Test
    void longLinesAndLongContinuationsLoadQuickly() {
        String longBody = "x".repeat(1500);
        String continued =
                IntStream.range(0, 40)
                        .mapToObj(i -> "  <line" + i + ">" + "y".repeat(60) + "</line" + i + ">\\")
                        .collect(Collectors.joining("\n"));

        assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> {
                    assertThat(
                                    load(lines(
                                                    "host = h",
                                                    "port = 1",
                                                    "[request]",
                                                    "req_body = " + longBody))
                                            .profile()
                                            .request()
                                            .bodyTemplate())
                            .isEqualTo(longBody);
                    String body =
                            load(lines(
                                            "host = h",
                                            "port = 1",
                                            "[request]",
                                            "req_body = \\",
                                            continued,
                                            "",
                                            "[response]"))
                                    .profile()
                                    .request()
                                    .bodyTemplate();
                    assertThat(body.split("\n", -1)).hasSize(42);
                    assertThat(body.length()).isGreaterThan(2000);
                });
    }

    @Test
    void aLineWithoutEqualsIsAnError() {
        assertThat(errors(tcp("this line has no equals sign")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(5))
                .satisfies(p -> assertThat(p.message()).contains("no '='"));
    }

    @Test
    void anUnknownSectionIsAnErrorNamingTheValidOnesAndItsLinesAreNotReportedAgain() {
        List<ProfileProblem> problems = errors(tcp("[Request]", "req_body = x", "whatever = 1"));

        assertThat(problems).hasSize(1);
        ProfileProblem problem = problems.get(0);
        assertThat(problem.line()).isEqualTo(5);
        assertThat(problem.key()).isEqualTo("[Request]");
        assertThat(problem.message())
                .contains("unknown section [Request]")
                .contains("[common], [request], [response], [parameters]");
    }

    @Test
    void paramtersIsAnAliasWithAWarning() throws Exception {
        LoadedProfile loaded =
                load(
                        lines(
                                "host = h",
                                "port = 1",
                                "[request]",
                                "req_body = $(length)$(N)",
                                "[paramters]",
                                "N = CONNECTID, %d"));

        assertThat(loaded.profile().parameters()).hasSize(1);
        assertThat(loaded.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.line()).isEqualTo(5))
                .satisfies(w -> assertThat(w.message()).contains("[parameters]"));
    }

    @Test
    void rspCodeLocaltionTagIsAnAliasWithAWarning() throws Exception {
        LoadedProfile loaded =
                load(tcp("[response]", "rsp_code_type = xml", "rsp_code_localtion_tag = <code>"));

        assertThat(loaded.profile().response().codeTag()).isEqualTo("<code>");
        assertThat(loaded.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.line()).isEqualTo(7))
                .satisfies(w -> assertThat(w.key()).isEqualTo("rsp_code_localtion_tag"))
                .satisfies(w -> assertThat(w.message()).contains("rsp_code_location_tag"));
    }

    @Test
    void unknownKeysAreErrorsWithASuggestion() {
        List<ProfileProblem> problems =
                errors(tcp("req_lenlen = 4", "[response]", "Rsp_headlen = 9", "colour = blue"));

        assertThat(problems).hasSize(3);
        assertThat(problems.get(0).line()).isEqualTo(5);
        assertThat(problems.get(0).key()).isEqualTo("req_lenlen");
        assertThat(problems.get(0).message()).contains("did you mean req_len_len?");
        assertThat(problems.get(1).line()).isEqualTo(7);
        assertThat(problems.get(1).message()).contains("did you mean rsp_headlen?");
        assertThat(problems.get(2).line()).isEqualTo(8);
        assertThat(problems.get(2).message()).contains("rsp_headlen, rsp_len_beg");
    }

    @Test
    void aKeyInTheWrongSectionSaysWhereItBelongs() {
        assertThat(errors(tcp("http_line = GET / HTTP/1.1")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("belongs in [common]"));
    }

    @Test
    void aRepeatedKeyUsesTheLastValueWithAWarning() throws Exception {
        LoadedProfile loaded = load(tcp("req_body = second"));

        assertThat(loaded.profile().request().bodyTemplate()).isEqualTo("second");
        assertThat(loaded.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.line()).isEqualTo(5))
                .satisfies(w -> assertThat(w.key()).isEqualTo("req_body"))
                .satisfies(w -> assertThat(w.message()).contains("also set on line 4"));
    }

    @Test
    void aDuplicateParameterNameIsAnError() {
        assertThat(
                        errors(
                                tcp(
                                        "req_head = $(length)$(A)",
                                        "[parameters]",
                                        "A = CONNECTID, %d",
                                        "A = CONNECTID, %05d")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(8))
                .satisfies(p -> assertThat(p.key()).isEqualTo("A"))
                .satisfies(p -> assertThat(p.message()).contains("already declared on line 7"));
    }

    @Test
    void aByteOrderMarkIsIgnored() throws Exception {
        assertThat(load("\uFEFF" + tcp()).profile().target().host()).isEqualTo("127.0.0.1");
    }
}
