package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.format.Strftime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** [parameters] entries and the $(NAME) placeholders of the templates. */
class ProfileLoaderParametersTest {

    /** A TCP profile whose body uses every given placeholder, then [parameters] and its lines. */
    private static String withParameters(String body, String... parameters) {
        return lines(
                        "host = h",
                        "port = 1",
                        "[request]",
                        "req_body = $(length)" + body,
                        "[parameters]")
                + lines(parameters);
    }

    @Test
    void everyParameterTypeIsBuiltInFileOrder(@TempDir Path folder) throws Exception {
        Files.writeString(folder.resolve("cards.txt"), "1111\n2222\n");
        Path ini = folder.resolve("profile.ini");
        String text =
                withParameters(
                        "$(SEQ)$(CARD)$(NOW)$(TERM)",
                        "SEQ = COUNTER, 100, 200, 5, %08ld",
                        "CARD = FILE, cards.txt",
                        "NOW = DATETIME, \"%Y%m%d %H:%M:%S\"",
                        "TERM\t=\tCONNECTID ,  T%05d");

        LoadedProfile loaded = load(text, ini);

        assertThat(loaded.warnings()).isEmpty();
        assertThat(loaded.profile().parameters())
                .containsExactly(
                        new ParameterSpec.Counter("SEQ", 6, 100, 200, 5, IntFormat.parse("%08ld")),
                        new ParameterSpec.File(
                                "CARD",
                                7,
                                folder.resolve("cards.txt").toAbsolutePath().normalize().toString(),
                                ImmutableBytes.copyOf("1111\n2222\n".getBytes(US_ASCII))),
                        new ParameterSpec.DateTime("NOW", 8, Strftime.compile("%Y%m%d %H:%M:%S")),
                        new ParameterSpec.ConnectId("TERM", 9, IntFormat.parse("T%05d")));
    }

    @Test
    void aFilePathFallsBackToTheWorkingFolder(@TempDir Path folder) throws Exception {
        // The tests run in the module folder, which holds pom.xml; the INI folder does not.
        String text = withParameters("$(LINE)", "LINE = FILE, pom.xml");

        List<ParameterSpec> parameters = load(text, folder.resolve("p.ini")).profile().parameters();

        Path pom = Path.of("pom.xml").toAbsolutePath().normalize();
        assertThat(parameters)
                .containsExactly(
                        new ParameterSpec.File(
                                "LINE",
                                6,
                                pom.toString(),
                                ImmutableBytes.copyOf(Files.readAllBytes(pom))));
    }

    @Test
    void aMissingDataFileIsAnErrorNamingBothPlacesTried(@TempDir Path folder) {
        List<ProfileProblem> problems =
                errors(
                        withParameters("$(LINE)", "LINE = FILE, no-such-file.txt"),
                        folder.resolve("p.ini"));

        assertThat(problems)
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(6))
                .satisfies(p -> assertThat(p.key()).isEqualTo("LINE"))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .contains("was not found")
                                        .contains(folder.resolve("no-such-file.txt").toString())
                                        .contains(
                                                Path.of("no-such-file.txt")
                                                        .toAbsolutePath()
                                                        .toString()));
    }

    @Test
    void anEmptyDataFileOrAFolderIsAnError(@TempDir Path folder) throws Exception {
        Files.writeString(folder.resolve("empty.txt"), "");
        Files.createDirectory(folder.resolve("data"));
        String text = withParameters("$(A)$(B)", "A = FILE, empty.txt", "B = FILE, data");

        List<ProfileProblem> problems = errors(text, folder.resolve("p.ini"));

        assertThat(problems).extracting(ProfileProblem::key).containsExactly("A", "B");
        assertThat(problems.get(0).message()).contains("is empty");
        assertThat(problems.get(1).message()).contains("is not a regular file");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SEQ = COUNTER, 1, 10, 1 | COUNTER takes 4 values after the type",
                "SEQ = COUNTER, 1, 10, 1, %d, x | but has 5",
                "SEQ = COUNTER, one, 10, 1, %d | the COUNTER start must be a whole number, not 'one'.",
                "SEQ = COUNTER, 1, 10x, 1, %d | the COUNTER end must be a whole number",
                "SEQ = COUNTER, 1, 10, 0, %d | the COUNTER step must be above 0.",
                "SEQ = COUNTER, 1, 10, -1, %d | the COUNTER step must be above 0.",
                "SEQ = COUNTER, 10, 1, 1, %d | the COUNTER end must not be below its start.",
                "SEQ = COUNTER, 1, 10, 1, %s | COUNTER: ",
                "SEQ = COUNTER, 1, 10, 1, | COUNTER: ",
                "SEQ = CONNECTID, plain text | CONNECTID: ",
                "SEQ = DATETIME, %Y%Q | DATETIME: ",
                "SEQ = counter, 1, 10, 1, %d | unknown parameter type 'counter'; the types are COUNTER, FILE,"
                        + " DATETIME, CONNECTID, ENV.",
                "SEQ = RANDOM, 1, 10 | unknown parameter type 'RANDOM'",
                "SEQ = CONNECTID | CONNECTID needs its arguments after a comma: NAME = CONNECTID, format.",
                "SEQ = COUNTER | NAME = COUNTER, start, end, step, format",
                "SEQ = FILE, | FILE needs a path",
                "SEQ = DATETIME, \"\" | DATETIME needs a format after the comma",
                "SEQ = ENV, API-KEY | ENV needs the name of an environment variable",
                "SEQ = ENV, A B | not 'A B': NAME = ENV, VARIABLE.",
            })
    void badParametersAreErrors(String line, String expected) {
        assertThat(errors(withParameters("$(SEQ)", line)))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(6))
                .satisfies(p -> assertThat(p.key()).isEqualTo("SEQ"))
                .satisfies(p -> assertThat(p.message()).contains(expected).endsWith("."));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1ST", "MY-NAME", "na me", "$X"})
    void badParameterNamesAreErrors(String name) {
        assertThat(errors(withParameters("", name + " = CONNECTID, %d")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("is not a valid parameter name"));
    }

    @Test
    void lengthCannotBeDeclared() {
        assertThat(errors(withParameters("", "length = CONNECTID, %d")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("is built in"));
    }

    @Test
    void envNamesTheVariableToRead() throws Exception {
        assertThat(load(withParameters("$(KEY)", "KEY = ENV, API_KEY")).profile().parameters())
                .containsExactly(new ParameterSpec.Env("KEY", 6, "API_KEY"));
    }

    @Test
    void aParameterWithBadArgumentsIsStillDeclaredForTemplates() {
        // One problem (the format), not a second one for the $(SEQ) that uses it.
        assertThat(errors(withParameters("$(SEQ)", "SEQ = CONNECTID, nothing"))).hasSize(1);
    }

    @Test
    void datetimeAcceptsPercentZ() throws Exception {
        assertThat(load(withParameters("$(T)", "T = DATETIME, %z")).profile().parameters())
                .containsExactly(new ParameterSpec.DateTime("T", 6, Strftime.compile("%z")));
    }

    @Test
    void anUndeclaredPlaceholderListsTheDeclaredOnes() {
        assertThat(errors(withParameters("$(NOPE)$(A)", "A = CONNECTID, %d", "B = CONNECTID, %d")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(4))
                .satisfies(p -> assertThat(p.key()).isEqualTo("req_body"))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .isEqualTo(
                                                "$(NOPE) is not a declared parameter; declared: A, B."));
    }

    @Test
    void placeholderProblemsInAContinuedBodyGiveThePhysicalLine() {
        String text =
                lines(
                        "host = h",
                        "port = 1",
                        "[request]",
                        "req_body = $(length)\\",
                        "<a>$(X)</a>\\",
                        "<b>\\",
                        "<c>$(Y</c>");

        List<ProfileProblem> problems = errors(text);

        assertThat(problems).extracting(ProfileProblem::line).containsExactly(5, 7);
        assertThat(problems.get(0).message())
                .contains("$(X) is not a declared parameter; no parameters");
        assertThat(problems.get(1).message()).contains("'$(' has no closing ')'");
    }

    @Test
    void anEmptyPlaceholderIsAnError() {
        assertThat(errors(withParameters("$()")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("'$()' names no parameter"));
    }

    @Test
    void httpPlaceholderProblemsGiveTheLineOfTheirHeader() {
        String text =
                lines(
                        "host = h",
                        "port = 80",
                        "http_line = GET /$(PATH) HTTP/1.1",
                        "[request]",
                        "req_head = X-A: 1",
                        "req_head = X-B: $(B)");

        assertThat(errors(text))
                .extracting(ProfileProblem::line, ProfileProblem::key)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(3, "http_line"),
                        org.assertj.core.groups.Tuple.tuple(6, "req_head"));
    }
}
