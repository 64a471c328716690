package io.tcpload.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.tls.SelfSigned;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad flags and the load-time cases of section 9 of the compatibility reference, through the real
 * command line: a clear message naming the file, line or flag, exit status 2, no stack trace.
 */
class BadInputTest {
    @TempDir Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private static void assertInvalid(CliResult result, String... fragments) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(2);
        assertThat(result.err()).contains(fragments).doesNotContain("\tat ", "Exception");
        assertThat(result.out()).doesNotContain("requests in");
    }

    @Test
    void versionPrintsAndExits() {
        CliResult result = CliResult.run("-v");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("tcpload-runner 0.1.0");
    }

    @Test
    void helpListsTheFlags() {
        CliResult result = CliResult.run("--help");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("--threads", "--connections", "--duration", "serve");
        // Descriptions are format strings: a lone % would print as written, with a warning.
        assertThat(result.out()).contains("(default 2%)").doesNotContain("%%");
    }

    @Test
    void missingProfileFileE1() {
        assertInvalid(CliResult.run(dir.resolve("nope.ini").toString()), "nope.ini");
    }

    @Test
    void aUrlOfAnotherSchemeIsRefusedAsAUrl() {
        assertInvalid(
                CliResult.run("-d1s", "ftp://127.0.0.1:1/ok"),
                "only http:// and https:// URLs are supported, got 'ftp://127.0.0.1:1/ok'");
    }

    @Test
    void aMixBeyondTheRunnersLimitsIsNamedByLine() throws IOException {
        StringBuilder text = new StringBuilder("host = 127.0.0.1\nport = 9\n");
        for (int i = 0; i < 33; i++) {
            text.append("[request.r").append(i).append("]\nreq_body = x\n");
        }
        Path many = write("many.ini", text.toString());
        assertInvalid(
                CliResult.run("-d1s", many.toString()),
                "many.ini:67: [request.r32]: a transaction mix holds at most 32 named requests");

        Path heavy =
                write(
                        "heavy.ini",
                        "host = 127.0.0.1\nport = 9\n[request.a]\nweight = 1001\nreq_body = x\n");
        assertInvalid(
                CliResult.run("-d1s", heavy.toString()),
                "heavy.ini:3: [request.a]: weight must be a whole number from 1 to 1000");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "E3 no req_body|[common]\\nhost = 127.0.0.1\\nport = 9\\n[request]\\n|: req_body",
                "E4 port 0|[common]\\nhost = 127.0.0.1\\nport = 0\\n[request]\\nreq_body = x\\n|:3: port",
                "E6 port 83737|host = 127.0.0.1\\nport = 83737\\n[request]\\nreq_body = x\\n|:2: port",
                "E9 no comma|host = 127.0.0.1\\nport = 9\\n[request]\\nreq_body = $(T)\\n"
                        + "[parameters]\\nT = CONNECTID\\n|:6: T",
                "E10 unknown type|host = 127.0.0.1\\nport = 9\\n[request]\\nreq_body = $(T)\\n"
                        + "[parameters]\\nT = RANDOM, 1\\n|:6: T",
                "E11 undefined name|host = 127.0.0.1\\nport = 9\\n[request]\\nreq_body = $(NOPE)\\n|"
                        + ":4: req_body",
                "E14 unclosed|host = 127.0.0.1\\nport = 9\\n[request]\\nreq_body = a$(X\\n|:4: req_body",
                "E27 missing FILE|host = 127.0.0.1\\nport = 9\\n[request]\\nreq_body = $(F)\\n"
                        + "[parameters]\\nF = FILE, missing-data.txt\\n|:6: F",
                "unknown section|host = 127.0.0.1\\nport = 9\\n[requests]\\nreq_body = x\\n|:3:",
                "unknown key|host = 127.0.0.1\\nport = 9\\n[request]\\nreq_bdy = x\\n|:4: req_bdy",
            })
    void badProfilesAreReportedWithLineAndKey(String name, String text, String where)
            throws IOException {
        Path profile = write("bad.ini", text.replace("\\n", "\n"));
        assertInvalid(CliResult.run("-d1s", profile.toString()), "bad.ini" + where);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "-t0|-t/--threads",
                "-c0|-c/--connections",
                "-d0|-d/--duration",
                "-dfast|-d/--duration",
                "--timeout=5x|-T/--timeout",
                "--pipeline=0|--pipeline",
                "--realtime|--realtime",
                "-r|-r",
                "--transport=carrier-pigeon|carrier-pigeon",
            })
    void badFlagsAreNamed(String flag, String named) throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(CliResult.run(flag, profile.toString()), named);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "-c2147483647|-c/--connections must be at most 1000000 for one runner",
                "-c100M|-c/--connections must be at most 1000000 for one runner",
                "-c99999999999999999999|-c/--connections: '99999999999999999999' is too large",
                "-t300|-t/--threads must be at most 256",
                "--pipeline=2000000|--pipeline must be at most 1000000",
                "--pipeline=-1|--pipeline must be at least 1 (got -1)",
                "-d99999999999h|-d/--duration must be at most 720h",
                "--stages=1000000h:5|--stages (their sum) must be at most 720h",
                "--timeout=-1s|-T/--timeout must be positive (got -1s)",
                "--timeout=2h|-T/--timeout must be at most 1h",
                "--warmup=-1s|--warmup must not be negative (got -1s)",
                "--runner-count=5000|--runner-count must be at most 1000",
            })
    void impossibleFlagsAreRefusedNamingTheLimit(String flag, String message) throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(CliResult.run(flag, profile.toString()), message);
    }

    @Test
    void everyProblemIsNamedAtOnce() throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(
                CliResult.run("-t0", "--timeout=-1s", "--pipeline=0", profile.toString()),
                "-t/--threads must be at least 1",
                "-T/--timeout must be positive",
                "--pipeline must be at least 1");
    }

    @Test
    void outputPathsThatCannotBeWrittenAreRefusedBeforeTheLoad() throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        Path missing = dir.resolve("no-such-folder").resolve("r.json");
        assertInvalid(
                CliResult.run("-d30s", "--json=" + missing, profile.toString()),
                "--json: cannot write " + missing + ": the folder",
                "does not exist");
        assertInvalid(
                CliResult.run("-d30s", "--html=" + dir, profile.toString()),
                "--html: cannot write " + dir + ": it is a folder");
    }

    @Test
    void anOutputThatIsAnInputOfTheRunIsRefusedAndTheInputKept() throws IOException {
        String text =
                "host = 127.0.0.1\nport = 9\n[request]\nreq_body = $(CARD)\n"
                        + "[parameters]\nCARD = FILE, cards.txt\n";
        Path profile = write("p.ini", text);
        Path cards = write("cards.txt", "4111\n");

        assertInvalid(
                CliResult.run("-d30s", "--json", profile.toString(), profile.toString()),
                "--json: " + profile + " is the profile, which the result would overwrite");
        // The same file by another name is still the profile.
        assertInvalid(
                CliResult.run(
                        "-d30s",
                        "--html",
                        dir.resolve(".").resolve("p.ini").toString(),
                        profile.toString()),
                "is the profile, which the result would overwrite");
        assertInvalid(
                CliResult.run("-d30s", "--html=" + cards, profile.toString()),
                "--html: " + cards + " is the data file of CARD");
        assertThat(Files.readString(profile)).isEqualTo(text);
        assertThat(Files.readString(cards)).isEqualTo("4111\n");
    }

    @ParameterizedTest
    @CsvSource({
        "-s,script.lua",
        "-sscript.lua,-d1s",
        "--script,script.lua",
        "--script=script.lua,-d1s"
    })
    void wrksLuaScriptFlagPointsToProfiles(String flag, String next) {
        CliResult result = CliResult.run("-c1", flag, next, "http://127.0.0.1:1/");

        assertInvalid(result, "-s/--script: wrk's Lua scripts are not supported", "INI profile");
        assertThat(result.err()).doesNotContain("Unknown option");
    }

    @Test
    void moreThreadsThanConnections() throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(CliResult.run("-t4", "-c2", profile.toString()), "at least -t/--threads");
    }

    @Test
    void pipeliningNeedsKeepAlive() throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(CliResult.run("--pipeline", "4", profile.toString()), "keep-alive");
    }

    @Test
    void urlFlagsWithAProfileAreRefused() throws IOException {
        Path profile = write("ok.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(CliResult.run("--body", "x", profile.toString()), "apply to URLs");
    }

    @Test
    void tlsFlagsOnAPlainProfileAreRefused() throws IOException {
        Path profile = write("plain.ini", "host = 127.0.0.1\nport = 9\n[request]\nreq_body = x\n");
        assertInvalid(
                CliResult.run("-d1s", "--tls-insecure", profile.toString()),
                "--tls-* flags apply to TLS targets");
    }

    @Test
    void tlsKeysWithoutTlsAreReportedWithLineAndKey() throws IOException {
        Path profile =
                write(
                        "half.ini",
                        "host = 127.0.0.1\nport = 9\ntls_verify = false\n[request]\nreq_body = x\n");
        assertInvalid(
                CliResult.run("-d1s", profile.toString()), "half.ini:3: tls_verify", "tls = true");
    }

    @Test
    void aMissingTlsFileIsNamedWithItsFlag() {
        assertInvalid(
                CliResult.run("-d1s", "--tls-ca=/nonexistent/ca.pem", "https://127.0.0.1:1/"),
                "--tls-ca: the CA bundle /nonexistent/ca.pem does not exist");
    }

    @Test
    void aClientKeyOfAnotherCertificateIsRefusedBeforeTheRun() throws IOException {
        SelfSigned mine = SelfSigned.forNames(List.of("127.0.0.1"));
        SelfSigned other = SelfSigned.forNames(List.of("127.0.0.1"));
        Path cert = write("client.crt", mine.certificatePem());
        Path key = write("other.key", other.keyPem());
        assertInvalid(
                CliResult.run(
                        "-d1s",
                        "--tls-insecure",
                        "--tls-cert=" + cert,
                        "--tls-key=" + key,
                        "https://127.0.0.1:1/"),
                key + " is not the private key of the certificate in " + cert);
    }

    @Test
    void halfAClientCertificateIsRefused() {
        assertInvalid(
                CliResult.run("--tls-cert=c.pem", "https://127.0.0.1:1/"),
                "give --tls-cert and --tls-key together");
    }

    @Test
    void nothingToRun() {
        assertInvalid(CliResult.run("-t1"), "profile file or a URL");
    }
}
