package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.tcpload.operator.TcpLoadMain;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.runner.RunnerMain;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code tcpload run} end to end: examples against the demo target on loopback, for 2 s. */
@Timeout(120)
class LocalRunTest {
    private static final Pattern REQUESTS = Pattern.compile("(?m)^ +([0-9]+) requests in ");

    record Result(int exitStatus, String out, String err) {
        long requests() {
            Matcher matcher = REQUESTS.matcher(out);
            assertThat(matcher.find()).as("a report in:\n" + out + err).isTrue();
            return Long.parseLong(matcher.group(1));
        }

        /** The printed status block, read as YAML (long messages are folded in it). */
        JsonNode status() throws Exception {
            int at = out.indexOf("\nstatus:\n");
            assertThat(at).as("a status block in:\n" + out).isNotNegative();
            return new YAMLMapper().readTree(out.substring(at)).path("status");
        }
    }

    static Result tcpload(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = TcpLoadMain.execute(o, e, args);
        }
        return new Result(
                status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The examples that run a load; the dry run's is {@link ExamplesTest}'s. */
    static List<Path> tests() {
        return Examples.loads();
    }

    /**
     * Whether this runner takes the rate schedule flags that RunnerInvocations passes for rate
     * specs.
     */
    private static boolean runnerHasRateMode() {
        ByteArrayOutputStream help = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(help, true, StandardCharsets.UTF_8)) {
            RunnerMain.execute(out, out, "--help");
        }
        String text = help.toString(StandardCharsets.UTF_8);
        return text.contains("--rate") && text.contains("--stages");
    }

    @ParameterizedTest
    @MethodSource("tests")
    void everyExampleRunsAgainstTheDemoTargetAndPasses(Path example) throws Exception {
        TcpLoadTestSpec spec = TestFile.read(example).singleTest().getSpec();
        if (spec.getRate() != null || !spec.getStages().isEmpty()) {
            assumeTrue(runnerHasRateMode(), "the runner has no rate mode yet");
        }

        Result result = tcpload("run", "-f", example.toString(), "--demo-target", "-d", "2s");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.requests()).isPositive();
        assertThat(result.out())
                .contains("Latency Distribution")
                .contains("\nstatus:\n")
                .contains("  phase: Succeeded\n")
                .contains("type: ThresholdsMet");
        // One status line per runner, in index order.
        for (int i = 0; i < spec.getRunners(); i++) {
            assertThat(result.out()).contains("    - index: " + i + "\n");
        }
        assertThat(result.out()).doesNotContain("    - index: " + spec.getRunners() + "\n");
        assertThat(result.err()).contains("demo target on 127.0.0.1:");
    }

    @Test
    void theTlsExampleRunsOverTlsAgainstTheDemoTargetsOwnCertificate() throws Exception {
        Result result =
                tcpload(
                        "run",
                        "-f",
                        Examples.FOLDER.resolve("tls.yaml").toString(),
                        "--demo-target",
                        "-d",
                        "1s");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.err()).contains("(TLS, a certificate made at start)");
        assertThat(result.requests()).isPositive();
        // Timed apart from connect: the handshake's own line in the report.
        assertThat(result.out()).containsPattern("(?m)^ +Handshake +[0-9.]+[mu]?s ");
        assertThat(result.out()).contains("  phase: Succeeded\n").contains("tlsHandshakeP99Ms: ");
    }

    @Test
    void aSpecTlsSecretMissingFromTheFileExitsTwoNamingTheField(@TempDir Path folder)
            throws Exception {
        String text = Files.readString(Examples.FOLDER.resolve("tls.yaml"));
        // The test alone, without the Secret and the ConfigMap before it.
        Path file =
                Files.writeString(
                        folder.resolve("tls.yaml"),
                        text.substring(text.indexOf("apiVersion: tcpload.io/v1alpha1")));

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err())
                .contains("spec.tls.ca.configMapKeyRef")
                .contains("tcpload-demo-ca");
    }

    @Test
    void aMissedThresholdExitsOneWithTheMeasuredValue(@TempDir Path folder) throws Exception {
        Path file =
                withSpec(folder, "  duration: 1s\n  thresholds:\n    - \"tps >= 1000000000\"\n");

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).as(result.err()).isEqualTo(1);
        assertThat(result.requests()).isPositive();
        assertThat(result.out())
                .contains("  phase: Failed\n")
                .contains("reason: ThresholdsMissed")
                .contains("tps >= 1000000000: measured ");
    }

    @Test
    void jsonToStdoutLeavesStdoutTheMergedJsonAloneAndTheReportAndStatusOnStderr() {
        Result result =
                tcpload(
                        "run",
                        "-f",
                        Examples.FOLDER.resolve("quickstart.yaml").toString(),
                        "--demo-target",
                        "-d",
                        "1s",
                        "--json",
                        "-");

        assertThat(result.exitStatus()).as(result.err()).isZero();
        // Standard output is one JSON document, as a program reading it expects.
        RunSummary merged = JsonResult.read(result.out());
        assertThat(result.out().strip()).startsWith("{").endsWith("}");
        Matcher requests = REQUESTS.matcher(result.err());
        assertThat(requests.find()).as(result.err()).isTrue();
        assertThat(merged.counts().requests())
                .isEqualTo(Long.parseLong(requests.group(1)))
                .isPositive();
        assertThat(result.err()).contains("\nstatus:\n", "  phase: Succeeded\n");
        assertThat(result.out()).doesNotContain("status:", "requests in ");
    }

    @Test
    void aLatencyThresholdOnNoResponsesIsMissed(@TempDir Path folder) throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        Path file =
                write(
                        folder,
                        TEST.replace("port = 9", "port = " + closed)
                                + "  connections: 2\n  timeout: 500ms\n  duration: 1s\n"
                                + "  thresholds: [\"p99 < 250ms\", \"max <= 1ms\"]\n");

        Result result = tcpload("run", "-f", file.toString());

        assertThat(result.exitStatus()).as(result.out() + result.err()).isEqualTo(1);
        assertThat(result.requests()).isZero();
        assertThat(result.out())
                .contains("  phase: Failed\n")
                .contains("reason: ThresholdsMissed")
                .doesNotContain("Every threshold held");
        assertThat(result.status().path("message").asText())
                .isEqualTo(
                        "Thresholds missed: p99 < 250ms: no responses to measure; max <= 1ms: no"
                                + " responses to measure.");
    }

    @Test
    void anUnknownFieldExitsTwoNamingTheField(@TempDir Path folder) throws Exception {
        Path file = withSpec(folder, "  duration: 1s\n  conections: 20\n");

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err())
                .contains(file.toString())
                .contains("spec.conections: unknown field; did you mean 'connections'?")
                .doesNotContain("io.tcpload")
                .doesNotContain("ignorable");
        assertThat(result.out()).doesNotContain("requests in");
    }

    @Test
    void aValueOfTheWrongKindSaysWhatTheFieldTakesNotAJavaType(@TempDir Path folder)
            throws Exception {
        Path threads = withSpec(folder, "  duration: 1s\n  threads: two\n");
        Result result = tcpload("run", "-f", threads.toString(), "--demo-target");
        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err())
                .contains("spec.threads: must be a whole number, not 'two'")
                .doesNotContain("java.lang");

        Path keepAlive = withSpec(folder, "  duration: 1s\n  keepAlive: maybe\n");
        result = tcpload("run", "-f", keepAlive.toString(), "--demo-target");
        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("spec.keepAlive: must be true or false, not 'maybe'");

        Path thresholds = withSpec(folder, "  duration: 1s\n  thresholds:\n    p99: 1s\n");
        result = tcpload("run", "-f", thresholds.toString(), "--demo-target");
        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("spec.thresholds: must be a list");
    }

    @Test
    void anInvalidSpecExitsTwoWithTheFieldAndTheInvalidStatus(@TempDir Path folder)
            throws Exception {
        Path file = withSpec(folder, "  duration: 1s\n  runners: 2\n  threads: 2\n");

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("spec.connections: must be at least runners x threads");
        assertThat(result.out())
                .contains("  phase: Failed\n")
                .contains("reason: InvalidSpec")
                .doesNotContain("requests in");
    }

    @Test
    void aProfileErrorExitsTwoWithItsLineAndKey(@TempDir Path folder) throws Exception {
        Path file =
                write(
                        folder,
                        TEST.replace("rsp_code_type = xml", "rsp_code_type = yaml")
                                + "  duration: 1s\n");

        Result result = tcpload("run", "-f", file.toString());

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("spec.profile: line ").contains("rsp_code_type");
    }

    @Test
    void anEnvParameterReadsTheSpecsVariablesNotTheShells(@TempDir Path folder) throws Exception {
        // PATH is set in every shell; a runner pod has only what spec.runner.env gives it.
        Path file =
                write(
                        folder,
                        TEST.replace(
                                                "    N = COUNTER",
                                                "    SHELL_PATH = ENV, PATH\n    N = COUNTER")
                                        .replace("<req>", "<req>$(SHELL_PATH)")
                                + "  duration: 1s\n");

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).as(result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains("runner 0: line ")
                .contains(": SHELL_PATH: the environment variable PATH is not set");
    }

    @Test
    void aConfigMapMissingFromTheFileExitsTwoNamingTheReference(@TempDir Path folder)
            throws Exception {
        String text =
                """
                apiVersion: tcpload.io/v1alpha1
                kind: TcpLoadTest
                metadata:
                  name: t
                spec:
                  profileFrom: {name: profiles, key: bank.ini}
                  duration: 1s
                """;
        Path file = write(folder, text);

        Result result = tcpload("run", "-f", file.toString());

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err())
                .contains("spec.profileFrom: ConfigMap 'profiles' with key 'bank.ini' is not in");
    }

    @Test
    void anEndlessTestFileIsRefusedAtTheCap() {
        assumeTrue(Files.exists(Path.of("/dev/zero")));

        Result result =
                org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                        java.time.Duration.ofSeconds(30), () -> tcpload("run", "-f", "/dev/zero"));

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("the test file /dev/zero has more than the limit");
    }

    static final String MIX_TEST =
            """
            apiVersion: tcpload.io/v1alpha1
            kind: TcpLoadTest
            metadata:
              name: mix
            spec:
              profile: |
                [common]
                host = 127.0.0.1
                port = 9
                keepalive = true
                [request.authorise]
                weight = 3
                req_body = authorise
                [request.balance]
                weight = 1
                req_body = balance
              runners: 2
              connections: 2
              duration: 1s
            """;

    @Test
    void aMixsRowsByRequestAreInTheLocalStatus(@TempDir Path folder) throws Exception {
        Path file = write(folder, MIX_TEST);

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        String status = result.out().substring(result.out().indexOf("\nstatus:\n"));
        assertThat(status)
                .contains("    byRequest:\n")
                .containsPattern("\n      - name: authorise\n        requests: [1-9]")
                .containsPattern("\n      - name: balance\n        requests: [1-9]")
                .contains("        p99Ms: ");
    }

    @Test
    void aDryRunPrintsEachRequestOnceAndWritesTheExchangeIntoTheStatus(@TempDir Path folder)
            throws Exception {
        Path file = write(folder, MIX_TEST + "  dryRun: true\n");

        Result result = tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isZero();
        assertThat(result.out())
                .contains("[1/2] authorise")
                .contains("[2/2] balance")
                .contains("Dry run: 2 of 2 responses a success")
                .doesNotContain("requests in")
                .contains("  phase: Succeeded\n")
                .contains("  dryRun:\n")
                .contains("      - name: authorise\n        verdict: success\n")
                .contains("        request: 3030303030303039617574686f72697365\n")
                .contains("        framing: \"head 8 bytes");
    }

    @Test
    void notYamlExitsTwo(@TempDir Path folder) throws Exception {
        Path file = write(folder, "kind: TcpLoadTest\nspec: [unclosed\n");
        Result result = tcpload("run", "-f", file.toString());
        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("not valid YAML");
    }

    @Test
    void aBadDurationOverrideExitsTwo() {
        Result result =
                tcpload(
                        "run",
                        "-f",
                        Examples.FOLDER.resolve("quickstart.yaml").toString(),
                        "-d",
                        "soon");
        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err()).contains("--duration: 'soon' is not a duration");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "duration: 5 s                       | spec.duration: ",
                "duration: -5s                       | spec.duration: ",
                "duration: 0s                        | spec.duration: ",
                "duration: 31d                       | spec.duration: ",
                "threads: 1                          | spec.duration: ",
                "stages: []                          | spec.duration: ",
                "stages: [{rate: 10}]                | spec.stages[0].duration: is missing.",
                "stages: [{duration: 1s, rate: -1}]  | spec.stages[0].rate: must be from 0",
            })
    void aDurationOverrideRunsOnlyAFileValidWithoutIt(
            String specLine, String expected, @TempDir Path folder) throws Exception {
        Path file = withSpec(folder, "  " + specLine + "\n");

        Result result = tcpload("run", "-f", file.toString(), "--demo-target", "-d", "1s");

        assertThat(result.exitStatus()).as(result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains(file + ": " + expected)
                .doesNotContain("Exception")
                .doesNotContain("Cannot invoke");
        assertThat(result.out()).doesNotContain("requests in");
    }

    @Test
    void aDurationOverrideOutOfRangeIsBlamedOnTheFlag() {
        Result result =
                tcpload(
                        "run",
                        "-f",
                        Examples.FOLDER.resolve("quickstart.yaml").toString(),
                        "-d",
                        "721h");

        assertThat(result.exitStatus()).isEqualTo(2);
        assertThat(result.err())
                .isEqualTo("tcpload run: --duration: must last at most 720h in all.\n")
                .doesNotContain("spec.duration");
    }

    @Test
    void theRunnerAndServeCommandsAreTheRunners() {
        Result help = tcpload("runner", "--help");
        assertThat(help.exitStatus()).isZero();
        assertThat(help.out()).startsWith("Usage: tcpload runner ").contains("--connections");

        Result run =
                tcpload(
                        "runner",
                        "-t1",
                        "-c2",
                        "-d500ms",
                        "--demo-target",
                        Examples.FOLDER.resolve("profiles/quickstart.ini").toString());
        assertThat(run.exitStatus()).as(run.err()).isZero();
        assertThat(run.requests()).isPositive();

        Result serve = tcpload("serve", "--help");
        assertThat(serve.exitStatus()).isZero();
        assertThat(serve.out()).contains("--failure-rate");
    }

    private static final String TEST =
            """
            apiVersion: tcpload.io/v1alpha1
            kind: TcpLoadTest
            metadata:
              name: t
            spec:
              profile: |
                [common]
                host = 127.0.0.1
                port = 9
                [request]
                req_body = <req>$(N)</req>
                [response]
                rsp_code_type = xml
                rsp_code_location_tag = <retCode>
                [parameters]
                N = COUNTER, 1, 999, 1, %03ld
            """;

    private static Path withSpec(Path folder, String specLines) throws Exception {
        return write(folder, TEST + specLines);
    }

    private static Path write(Path folder, String text) throws Exception {
        Path file = folder.resolve("test.yaml");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }
}
