package io.tcpload.operator.local;

import static io.tcpload.operator.local.LocalRunTest.tcpload;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.local.LocalRunTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code tcpload run -f TEST.yaml --test}: the runner's dry run of a test, on one connection. */
@Timeout(120)
class LocalDryRunTest {

    static List<Path> tests() {
        return Examples.tests();
    }

    @ParameterizedTest
    @MethodSource("tests")
    void everyExampleDryRunsAgainstTheDemoTarget(Path example) {
        Result result = tcpload("run", "-f", example.toString(), "--demo-target", "--test");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("Dry run @ 127.0.0.1:")
                .containsPattern("Dry run: ([0-9]+) of \\1 responses? a success");
        if (Examples.loads().contains(example) || !isDryRun(example)) {
            assertThat(result.out()).doesNotContain("\nstatus:\n");
        } else {
            // A test that is a dry run itself runs as in a cluster, --test or not.
            assertThat(result.out()).contains("\nstatus:\n  phase: Succeeded\n");
        }
    }

    private static boolean isDryRun(Path example) {
        try {
            return Boolean.TRUE.equals(TestFile.read(example).singleTest().getSpec().getDryRun());
        } catch (BadInputException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Secret example made a dry run, as a user would to try its credentials out. */
    private static Path secretDryRun(Path folder, boolean dryRun) throws Exception {
        String text = Files.readString(Examples.FOLDER.resolve("secret-credentials.yaml"));
        String spec = text.substring(0, text.indexOf("\n  duration: ") + 1);
        return Files.writeString(
                folder.resolve("secret.yaml"),
                spec + (dryRun ? "  dryRun: true\n" : "  duration: 1s\n"));
    }

    @Test
    void testOnASpecDryRunMasksItsSecretsAndPrintsTheStatus(@TempDir Path folder) throws Exception {
        Path file = secretDryRun(folder, true);

        Result result = tcpload("run", "-f", file.toString(), "--demo-target", "--test");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("Masked (** in hex, * in text): CARD (FILE cards.txt), PIN (ENV)")
                .contains("<pin>****</pin>")
                .doesNotContain("0042")
                .doesNotContain("6222020000000001")
                .contains("\nstatus:\n  phase: Succeeded\n")
                .contains("    - PIN (ENV)\n");
    }

    @Test
    void testOnALoadTestIsTheRunnersOwnDryRunUnmasked(@TempDir Path folder) throws Exception {
        Path file = secretDryRun(folder, false);

        Result result = tcpload("run", "-f", file.toString(), "--demo-target", "--test");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("<pin>0042</pin>")
                .doesNotContain("Masked")
                .doesNotContain("\nstatus:\n");
    }

    @Test
    void thePaymentMixSignsOnFirstAndCarriesItsSession() {
        Result result =
                tcpload(
                        "run",
                        "-f",
                        Examples.FOLDER.resolve("payment-mix.yaml").toString(),
                        "--demo-target",
                        "--test");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("[1/4] signon (sign-on)")
                .contains("extract SESSION (xml <session> in body): \"S")
                .contains("echo TRACE (xml <trace> in body): sent \"")
                .contains("Dry run: 4 of 4 responses a success");
    }

    @Test
    void specDryRunMasksTheSessionCarriedFromTheSignOnUnlessAskedToShowValues(@TempDir Path folder)
            throws Exception {
        String mix = Files.readString(Examples.FOLDER.resolve("payment-mix.yaml"));
        Path masked = Files.writeString(folder.resolve("masked.yaml"), mix + "  dryRun: true\n");
        Path shown =
                Files.writeString(
                        folder.resolve("shown.yaml"),
                        mix + "  dryRun: true\n  dryRunShowValues: true\n");

        Result hidden = tcpload("run", "-f", masked.toString(), "--demo-target");
        Result open = tcpload("run", "-f", shown.toString(), "--demo-target");

        assertThat(hidden.exitStatus()).as(hidden.out() + hidden.err()).isZero();
        assertThat(open.exitStatus()).as(open.out() + open.err()).isZero();
        java.util.regex.Matcher issued =
                java.util.regex.Pattern.compile("extract SESSION \\(.*\\): \"([^\"*]+)\"")
                        .matcher(open.out());
        assertThat(issued.find()).as(open.out()).isTrue();
        String session = issued.group(1);
        String sessionHex = java.util.HexFormat.of().formatHex(session.getBytes());
        assertThat(open.out())
                .contains("  phase: Succeeded\n")
                .doesNotContain("masked:")
                .contains(
                        "          - name: SESSION\n            bytes: " + session.length() + "\n")
                .containsPattern("            value: \"?" + sessionHex + "\"?\n")
                .contains(java.util.HexFormat.of().formatHex(("<sess>" + session).getBytes()));
        String stars = "\"" + "*".repeat(session.length()) + "\"";
        assertThat(hidden.out())
                .contains("Masked (** in hex, * in text): SESSION (extracted)")
                .contains("extract SESSION (xml <session> in body): " + stars)
                .contains("  phase: Succeeded\n")
                .contains("    - SESSION (extracted)\n")
                .contains("            value: '" + "**".repeat(session.length()) + "'")
                .doesNotContain(session)
                .doesNotContain(sessionHex);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"--json", "--html"})
    void aSpecDryRunRefusesResultFilesWithExitTwoBeforeSendingAnything(
            String flag, @TempDir Path folder) {
        Path result = folder.resolve("result");

        Result refused =
                tcpload(
                        "run",
                        "-f",
                        Examples.FOLDER.resolve("dry-run.yaml").toString(),
                        "--demo-target",
                        flag,
                        result.toString());

        assertThat(refused.exitStatus()).as(refused.out() + refused.err()).isEqualTo(2);
        assertThat(refused.err())
                .contains("dry-run.yaml: spec.dryRun: true runs a dry run")
                .contains("it writes no --json or --html result")
                .doesNotContain("Exception");
        assertThat(refused.out()).doesNotContain("Dry run @").doesNotContain("status:");
        assertThat(result).doesNotExist();
        assertThat(refused.err()).doesNotContain("demo target on");
    }

    @Test
    void aFailedResponseExitsOneAndResultFilesAreRefused(@TempDir Path folder) throws Exception {
        String text = Files.readString(Examples.FOLDER.resolve("quickstart.yaml"));
        Path wrong =
                Files.writeString(
                        folder.resolve("wrong.yaml"),
                        text.replace("rsp_code_success = 000000", "rsp_code_success = 123456"));
        Path profileFree =
                Files.writeString(
                        folder.resolve("served.yaml"), text.replace("port = 9000", "port = 9000"));

        // The demo target serves what the profile asks for: point the test at a target that
        // answers the quickstart's success code instead.
        try (var target =
                io.tcpload.runner.serve.DemoServer.start(
                        io.tcpload.runner.profile.ProfileLoader.load(
                                        Examples.FOLDER
                                                .resolve("profiles")
                                                .resolve("quickstart.ini"))
                                .profile(),
                        io.tcpload.runner.serve.ServeOptions.defaults())) {
            Path pointed =
                    Files.writeString(
                            folder.resolve("pointed.yaml"),
                            Files.readString(wrong)
                                    .replace("host = tcpload-demo", "host = 127.0.0.1")
                                    .replace("port = 9000", "port = " + target.port()));
            Result failed = tcpload("run", "-f", pointed.toString(), "--test");
            assertThat(failed.exitStatus()).as(failed.out() + failed.err()).isEqualTo(1);
            assertThat(failed.out()).contains("verdict: failure");
        }

        Result refused =
                tcpload(
                        "run",
                        "-f",
                        profileFree.toString(),
                        "--demo-target",
                        "--test",
                        "--json",
                        folder.resolve("r.json").toString());
        assertThat(refused.exitStatus()).isEqualTo(2);
        assertThat(refused.err()).contains("--test prints the dry run");
    }
}
