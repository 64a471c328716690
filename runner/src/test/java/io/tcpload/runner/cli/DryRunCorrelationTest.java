package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.report.DryRunResult;
import io.tcpload.runner.report.DryRunResult.Exchange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --test} of a profile that carries values: the sign-on first, the values shown. */
class DryRunCorrelationTest {
    private static final Path EXAMPLE = Path.of("..", "examples", "profiles", "payment-mix.ini");

    @TempDir Path dir;

    @Test
    void theSignOnGoesFirstAndItsSessionIsCarriedAndEchoesChecked() {
        CliResult result = CliResult.run("--test", "--demo-target", EXAMPLE.toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        String out = result.out();
        assertThat(out).contains("[1/4] signon (sign-on)");
        assertThat(out.indexOf("[1/4] signon")).isLessThan(out.indexOf("[2/4] authorise"));
        assertThat(out).contains("  extract SESSION (xml <session> in body): \"S");
        assertThat(out)
                .contains(
                        "  echo TRACE (xml <trace> in body): sent \"00000001\", found \"00000001\"");
        assertThat(out).contains("Dry run: 4 of 4 responses a success");
    }

    @Test
    void aValueCarriedFromAResponseIsMaskedWhereverItAppearsAndInTheValuesExtracted()
            throws Exception {
        Path json = dir.resolve("dry.json");
        CliResult plain = CliResult.run("--test", "--demo-target", EXAMPLE.toString());
        Matcher issued =
                Pattern.compile("extract SESSION \\(.*\\): \"([^\"]+)\"").matcher(plain.out());
        assertThat(issued.find()).as(plain.out()).isTrue();
        String session = issued.group(1);

        CliResult result =
                CliResult.run(
                        "--test",
                        "--test-mask-extracted",
                        "--test-json=" + json,
                        "--demo-target",
                        EXAMPLE.toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        String stars = "*".repeat(session.length());
        assertThat(result.out())
                .contains("Masked (** in hex, * in text): SESSION (extracted)")
                .contains("  extract SESSION (xml <session> in body): \"" + stars + "\"")
                .doesNotContain(session)
                .doesNotContain(hex(session, " "))
                .contains("Dry run: 4 of 4 responses a success");
        DryRunResult written = DryRunResult.read(Files.readString(json));
        assertThat(written.masked()).containsExactly("SESSION (extracted)");
        assertThat(written.exchanges().get(0).extracted())
                .containsExactly(
                        new DryRunResult.Value(
                                "SESSION", session.length(), "**".repeat(session.length())));
        assertThat(written.toJson()).doesNotContain(hex(session, ""));
        for (Exchange exchange : written.exchanges()) {
            assertThat(exchange.whole()).isTrue();
            // The sign-on's response carries it, every later request sends it.
            assertThat(exchange.name().equals("signon") ? exchange.response() : exchange.request())
                    .contains("**".repeat(session.length()));
        }
        // The echoed trace numbers, not carried from a response, are shown.
        assertThat(result.out()).contains("sent \"00000001\", found \"00000001\"");
    }

    private static String hex(String text, String between) {
        return HexFormat.ofDelimiter(between).formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void withShortConnectionsEachRequestSignsOnAgain() throws Exception {
        Path profile = dir.resolve("short.ini");
        Files.writeString(
                profile,
                Files.readString(EXAMPLE).replace("keepalive = true", "keepalive = false"));

        CliResult result = CliResult.run("--test", "--demo-target", profile.toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("[1/6] signon (sign-on)", "[2/6] authorise", "[3/6] signon (sign-on)")
                .contains("Dry run: 6 of 6 responses a success");
    }

    @Test
    void aValueNotFoundFailsItsResponseAndTheNextRequestIsNotSent() throws Exception {
        Path served = dir.resolve("served.ini");
        Files.copy(EXAMPLE, served);
        Path profile = dir.resolve("wrong.ini");
        Files.writeString(
                profile,
                Files.readString(EXAMPLE)
                        .replace(
                                "rsp_extract = SESSION, xml, body, <session>",
                                "rsp_extract = SESSION, xml, body, <nosuch>"));
        // The demo target serves the profile it is given: serve the right one, test the wrong.
        try (var target =
                io.tcpload.runner.serve.DemoServer.start(
                        io.tcpload.runner.profile.ProfileLoader.load(served).profile(),
                        io.tcpload.runner.serve.ServeOptions.defaults())) {
            CliResult result =
                    CliResult.run(
                            "--test", "--target=127.0.0.1:" + target.port(), profile.toString());

            assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(1);
            assertThat(result.out())
                    .contains("  extract SESSION (xml <nosuch> in body): no <nosuch> in the body")
                    .contains("verdict: failure (extract SESSION: no <nosuch> in the body)")
                    .contains("  not sent: missing value SESSION")
                    .contains("Dry run: 0 of 4 responses a success");
        } catch (InterruptedException | io.tcpload.runner.profile.ProfileException e) {
            throw new AssertionError(e);
        }
    }
}
