package io.tcpload.runner.profile;

import static io.tcpload.runner.profile.ProfileTexts.errors;
import static io.tcpload.runner.profile.ProfileTexts.fileErrors;
import static io.tcpload.runner.profile.ProfileTexts.lines;
import static io.tcpload.runner.profile.ProfileTexts.load;
import static io.tcpload.runner.profile.ProfileTexts.tcp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tcpload.runner.testing.Fifos;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load-time cases of the compatibility reference's list of wrktcp bugs and limits (E1..E27):
 * each is refused with a clear problem, loads with a warning, or simply loads.
 */
class ProfileLoaderBadInputTest {

    @Test
    void e1MissingFileIsAProblemWithoutALine(@TempDir Path folder) {
        Path missing = folder.resolve("missing.ini");

        assertThat(fileErrors(missing))
                .singleElement()
                .satisfies(p -> assertThat(p.file()).isEqualTo(missing.toString()))
                .satisfies(p -> assertThat(p.line()).isZero())
                .satisfies(
                        p -> assertThat(p.message()).isEqualTo("the profile file does not exist."));
    }

    @Test
    void aFolderIsNotAProfile(@TempDir Path folder) {
        assertThat(fileErrors(folder))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isZero())
                .satisfies(p -> assertThat(p.message()).contains("is a folder"));
    }

    @Test
    void bytesThatAreNotUtf8AreShownEscapedInMessages(@TempDir Path folder) throws Exception {
        Path ini = folder.resolve("gbk.ini");
        byte[] head = tcp().getBytes(StandardCharsets.US_ASCII);
        byte[] bad = {
            'r',
            'e',
            'q',
            '_',
            'l',
            'e',
            'n',
            '_',
            'l',
            'e',
            'n',
            ' ',
            '=',
            ' ',
            (byte) 0xC4,
            (byte) 0xE3,
            '\n'
        };
        byte[] all = new byte[head.length + bad.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(bad, 0, all, head.length, bad.length);
        Files.write(ini, all);

        assertThat(fileErrors(ini))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(5))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .isEqualTo(
                                                "must be a whole number from 1 to 18, not"
                                                        + " '\\xC4\\xE3'."));
    }

    @Test
    void devicesThatNeverEndAreReadUpToTheCapThenRefused() {
        for (String device : List.of("/dev/zero", "/dev/urandom")) {
            Path path = Path.of(device);
            assumeTrue(Files.exists(path));

            assertThat(assertTimeoutPreemptively(Duration.ofSeconds(20), () -> fileErrors(path)))
                    .singleElement()
                    .satisfies(p -> assertThat(p.file()).isEqualTo(device))
                    .satisfies(p -> assertThat(p.line()).isZero())
                    .satisfies(
                            p ->
                                    assertThat(p.message())
                                            .isEqualTo(
                                                    "the profile file has more than the limit of"
                                                            + " 16777216 bytes."));
        }
    }

    @Test
    void aFifoThatNeverEndsIsReadUpToTheCapThenRefused(@TempDir Path folder) throws Exception {
        Path fifo = Fifos.create(folder.resolve("endless.ini"));
        try (Fifos.Writer writer = Fifos.writeEndlessly(fifo)) {
            assertThat(assertTimeoutPreemptively(Duration.ofSeconds(20), () -> fileErrors(fifo)))
                    .singleElement()
                    .satisfies(p -> assertThat(p.message()).contains("more than the limit"));
        }
    }

    @Test
    void aFifoWithAProfileLoads(@TempDir Path folder) throws Exception {
        Path fifo = Fifos.create(folder.resolve("piped.ini"));
        try (Fifos.Writer writer = Fifos.write(fifo, tcp().getBytes(StandardCharsets.US_ASCII))) {
            LoadedProfile loaded =
                    assertTimeoutPreemptively(
                            Duration.ofSeconds(20), () -> ProfileLoader.load(fifo));
            assertThat(loaded.profile().request().bodyTemplate()).isEqualTo("hello");
        }
    }

    @Test
    void aProcFileIsReadAndJudgedAsAProfile() {
        Path status = Path.of("/proc/self/status");
        assumeTrue(Files.exists(status));

        assertThat(fileErrors(status))
                .anySatisfy(p -> assertThat(p.key()).isEqualTo("host"))
                .anySatisfy(
                        p -> {
                            assertThat(p.line()).isEqualTo(1);
                            assertThat(p.message()).contains("has no '='");
                        });
    }

    @Test
    void anyFileNameIsAccepted(@TempDir Path folder) throws Exception {
        Path profile = folder.resolve("profile.txt");
        Files.writeString(profile, tcp());

        assertThat(ProfileLoader.load(profile).profile().source()).isEqualTo(profile);
        assertThat(ProfileLoader.load(profile).profile().displayName()).isEqualTo("profile.txt");
    }

    @Test
    void e3ReqBodyIsRequiredInTcpMode() {
        assertThat(errors(lines("host = h", "port = 1")))
                .singleElement()
                .satisfies(p -> assertThat(p.key()).isEqualTo("req_body"))
                .satisfies(p -> assertThat(p.line()).isZero())
                .satisfies(p -> assertThat(p.message()).contains("is required in [request]"));
    }

    @Test
    void e4PortZeroAndE6Port83737AreRefused() {
        assertThat(errors(lines("host = h", "port = 0", "[request]", "req_body = x")))
                .singleElement()
                .satisfies(
                        p ->
                                assertThat(p.toString())
                                        .isEqualTo(
                                                "test.ini:2: port: must be a whole number from 1 to"
                                                        + " 65535, not '0'."));
        assertThat(errors(lines("host = h", "port = 83737", "[request]", "req_body = x")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("not '83737'"));
    }

    @Test
    void e8ReadmeSpellingsLoadWithWarnings() throws Exception {
        String text =
                tcp(
                        "req_head = $(length)$(T)",
                        "[response]",
                        "rsp_code_type = json",
                        "rsp_code_localtion_tag = \"retCode\"",
                        "[paramters]",
                        "T = CONNECTID, %d");

        LoadedProfile loaded = load(text);

        assertThat(loaded.profile().response().codeTag()).isEqualTo("\"retCode\"");
        assertThat(loaded.profile().parameters()).hasSize(1);
        assertThat(loaded.warnings()).extracting(ProfileProblem::line).containsExactly(8, 9);
    }

    @Test
    void e9MissingCommaSaysTheExpectedForm() {
        assertThat(
                        errors(
                                tcp(
                                        "req_head = $(length)$(TERMNO)",
                                        "[parameters]",
                                        "TERMNO = CONNECTID")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(7))
                .satisfies(p -> assertThat(p.message()).contains("NAME = CONNECTID, format"));
    }

    @Test
    void e10UnknownParameterTypeIsAnError() {
        assertThat(errors(tcp("req_head = $(length)$(R)", "[parameters]", "R = RANDOM, 1, 9")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(7))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .contains("COUNTER, FILE, DATETIME, CONNECTID"));
    }

    @Test
    void e11AndE12UndeclaredPlaceholdersAreErrors() {
        assertThat(errors(tcp("req_head = $(length)$(NOPE)")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(5))
                .satisfies(
                        p ->
                                assertThat(p.message())
                                        .startsWith("$(NOPE) is not a declared parameter"));
        assertThat(errors(tcp("req_head = $(length)$(NOPE)", "[parameters]", "A = CONNECTID, %d")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).endsWith("declared: A."));
    }

    @Test
    void e13NoLengthAnywhereIsAWarning() throws Exception {
        LoadedProfile loaded = load(tcp("req_head = FIXEDHEAD"));

        assertThat(loaded.profile().request().headTemplate()).isEqualTo("FIXEDHEAD");
        assertThat(loaded.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.line()).isEqualTo(5))
                .satisfies(
                        w ->
                                assertThat(w.message())
                                        .contains(
                                                "requests carry no length field and are sent as written"));
    }

    @Test
    void lengthInTheBodyAloneIsEnough() throws Exception {
        assertThat(load(tcp("req_head = H", "req_body = <len>$(length)</len>")).warnings())
                .extracting(ProfileProblem::key)
                .containsExactly("req_body"); // only the repeated-key warning
    }

    @Test
    void e14UnclosedPlaceholderIsAnError() {
        assertThat(errors(tcp("req_head = $(length)$(X")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(5))
                .satisfies(p -> assertThat(p.message()).contains("no closing ')'"));
    }

    @Test
    void e15WhitespaceLinesIndentedCommentsAndCrlfAreAccepted() throws Exception {
        String text = "  \r\n  # comment\r\n" + tcp().replace("\n", "\r\n") + "\t\r\n";

        LoadedProfile loaded = load(text);

        assertThat(loaded.profile().request().bodyTemplate()).isEqualTo("hello");
        assertThat(loaded.warnings()).isEmpty();
    }

    @Test
    void e16VeryLongLogicalLinesLoadFast() {
        String body = "z".repeat(200_000);

        assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () ->
                        assertThat(
                                        load(tcp("req_body = " + body))
                                                .profile()
                                                .request()
                                                .bodyTemplate())
                                .isEqualTo(body));
    }

    @Test
    void e23AShortHttpBodyIsFine() throws Exception {
        RequestSpec request =
                load(lines(
                                "host = h",
                                "port = 80",
                                "http_line = POST /x HTTP/1.1",
                                "[request]",
                                "req_body = hi"))
                        .profile()
                        .request();

        assertThat(request.bodyTemplate()).isEqualTo("hi");
        assertThat(request.lengthWidth()).isZero();
        assertThat(request.headTemplate()).contains("Content-Length: $(length)\r\n");
    }

    @Test
    void e25PercentZIsJustAFormat() throws Exception {
        assertThat(
                        load(tcp("req_head = $(length)$(T)", "[parameters]", "T = DATETIME, %z"))
                                .profile()
                                .parameters())
                .hasSize(1);
    }

    @Test
    void e27MissingDataFileIsAnError(@TempDir Path folder) {
        assertThat(
                        errors(
                                tcp(
                                        "req_head = $(length)$(F)",
                                        "[parameters]",
                                        "F = FILE, cards.txt"),
                                folder.resolve("p.ini")))
                .singleElement()
                .satisfies(p -> assertThat(p.line()).isEqualTo(7))
                .satisfies(p -> assertThat(p.message()).contains("cards.txt' was not found"));
    }

    @Test
    void everyMistakeIsReportedWithItsLine() {
        String text =
                lines(
                        "[common]", // 1
                        "host = 300.1.1.1", // 2
                        "port = 8o8o", // 3
                        "[request]", // 4
                        "req_len_len = 0", // 5
                        "req_head = $(length)$(SEQ)", // 6
                        "req_body = \\", // 7
                        "<a>$(NOPE)</a>\\", // 8
                        "", // 9
                        "[respones]", // 10
                        "rsp_headlen = 8", // 11
                        "[response]", // 12
                        "rsp_code_type = xml", // 13
                        "rsp_len_beg = 5", // 14
                        "no equals here", // 15
                        "[parameters]", // 16
                        "SEQ = COUNTER, 1, 9, 0, %06ld"); // 17

        List<ProfileProblem> problems = errors(text);

        assertThat(problems)
                .extracting(ProfileProblem::line, ProfileProblem::key)
                .containsExactly(
                        tuple(2, "host"),
                        tuple(3, "port"),
                        tuple(5, "req_len_len"),
                        tuple(8, "req_body"),
                        tuple(10, "[respones]"),
                        tuple(14, "rsp_len_beg"),
                        tuple(15, ""),
                        tuple(17, "SEQ"),
                        // Of no line, so last: what the lines above may well have caused.
                        tuple(0, "rsp_code_location_tag"));
        assertThat(problems).allSatisfy(p -> assertThat(p.file()).isEqualTo("test.ini"));
        assertThat(problems).allSatisfy(p -> assertThat(p.message()).endsWith("."));
    }

    @Test
    void aMisspeltSectionHeaderIsTheFirstProblemNotTheKeysItHides() {
        // What a local run or a TcpLoadTest's status shows is the first problem.
        List<ProfileProblem> problems =
                errors(
                        lines(
                                "[common",
                                "host = 127.0.0.1",
                                "port = 9000",
                                "[request]",
                                "req_body = x"));
        assertThat(problems.get(0))
                .satisfies(p -> assertThat(p.line()).isEqualTo(1))
                .satisfies(p -> assertThat(p.message()).contains("no closing ']'"));
    }

    @Test
    void theExceptionMessageListsEveryProblem() {
        try {
            ProfileLoader.parse(lines("port = x"), Path.of("bad.ini"));
        } catch (ProfileException e) {
            assertThat(e.getMessage())
                    .isEqualTo(
                            String.join(
                                    "\n",
                                    "bad.ini:1: port: must be a whole number from 1 to 65535, not 'x'.",
                                    "bad.ini: host: is required in [common]: the address to connect to.",
                                    "bad.ini: req_body: is required in [request]: the request body"
                                            + " template (may contain $(NAME) placeholders)."));
            return;
        }
        throw new AssertionError("expected a ProfileException");
    }
}
