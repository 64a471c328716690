package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.local.LocalRunTest.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tcpload run} of a test with {@code spec.search}, in-process with two runners, against the
 * demo target given workers by the test's annotations: what a search that cannot be searched and
 * bad input say. The search that finds a knee is {@code ExamplesTest}'s.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalSearchTest {
    @TempDir Path dir;

    private Path test(String annotations, String search) throws Exception {
        Path file = dir.resolve("search.yaml");
        Files.writeString(
                file,
                """
                apiVersion: tcpload.io/v1alpha1
                kind: TcpLoadTest
                metadata:
                  name: search
                  annotations:
                %s
                spec:
                  profile: |
                    [common]
                    host = 127.0.0.1
                    port = 9000
                    [request]
                    req_head = $(length)
                    req_body = <req><op>balance</op></req>
                    [response]
                    rsp_code_type = xml
                    rsp_code_location = body
                    rsp_code_location_tag = <retCode>
                    rsp_code_success = 000000
                  runners: 2
                  threads: 1
                  connections: 16
                  keepAlive: true
                  search:
                %s
                """
                        .formatted(annotations.indent(4).stripTrailing(), search.indent(4)),
                StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void aMinimumThatFailsAlreadyIsExitStatusTwoWithTheStepsFigures() throws Exception {
        // One worker of 10 ms serves 100 a second: the minimum asks ten times that.
        Path file =
                test(
                        """
                        tcpload.io/demo-workers: "1"
                        tcpload.io/demo-service-time-ms: "10"
                        """,
                        """
                        slo: ["p99 < 5s"]
                        minRate: 1000
                        maxRate: 2000
                        step: 2s
                        warmup: "0"
                        """);

        Result result = LocalRunTest.tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).as(result.out() + result.err()).isEqualTo(2);
        assertThat(result.err())
                .contains("1 workers of 10 ms: a capacity of 100 requests/sec")
                .contains("tcpload run: the range's minimum, 1000/s, failed already");
        assertThat(result.out())
                .contains("Capacity: not found (SLO p99 < 5s)")
                .containsPattern("(?m)^ +1 +grow +1000 ")
                .contains("  phase: Failed\n", "    end: minimum_failed\n")
                .contains("The capacity search found no capacity: the range's minimum");
    }

    @Test
    void aDurationIsRefusedForASearch() throws Exception {
        Path file = test("{}", "slo: [\"p99 < 50ms\"]\nminRate: 100\nmaxRate: 200\n");

        Result result =
                LocalRunTest.tcpload("run", "-f", file.toString(), "--demo-target", "-d", "2s");

        assertThat(result.exitStatus()).isEqualTo(LocalRun.EXIT_INVALID);
        assertThat(result.err()).contains("--duration: a capacity search's steps last");
    }

    @Test
    void theDemoTargetsAnnotationsAreCheckedByName() throws Exception {
        Path file =
                test(
                        "tcpload.io/demo-workers: \"many\"\ntcpload.io/demo-service-time-ms: \"4\"",
                        "slo: [\"p99 < 50ms\"]\nminRate: 100\nmaxRate: 200\n");
        Result result = LocalRunTest.tcpload("run", "-f", file.toString(), "--demo-target");
        assertThat(result.exitStatus()).isEqualTo(LocalRun.EXIT_INVALID);
        assertThat(result.err())
                .contains("metadata.annotations.tcpload.io/demo-workers: 'many' is not a whole");

        Path alone =
                test(
                        "tcpload.io/demo-workers: \"8\"",
                        "slo: [\"p99 < 50ms\"]\nminRate: 100\nmaxRate: 200\n");
        result = LocalRunTest.tcpload("run", "-f", alone.toString(), "--demo-target");
        assertThat(result.exitStatus()).isEqualTo(LocalRun.EXIT_INVALID);
        assertThat(result.err()).contains("go together");
    }

    @Test
    void aBadSearchIsRefusedByItsField() throws Exception {
        Path file = test("{}", "slo: [\"tps >= 100\"]\nminRate: 100\nmaxRate: 200\n");

        Result result = LocalRunTest.tcpload("run", "-f", file.toString(), "--demo-target");

        assertThat(result.exitStatus()).isEqualTo(LocalRun.EXIT_INVALID);
        assertThat(result.err()).contains("spec.search.slo: ", "bounds no latency and no errors");
    }
}
