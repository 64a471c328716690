package io.tcpload.operator.children;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.SecretKey;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.runner.contract.RunnerInvocation;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RunnerInvocationsTest {

    @Test
    void aSingleRunnerGetsTheWholeTest() {
        assertThat(RunnerInvocations.forRunner(Specs.valid(), 0).toArgs())
                .containsExactly(
                        "--threads=2",
                        "--connections=10",
                        "--duration=30s",
                        "--timeout=5s",
                        "--runner-index=0",
                        "--latency",
                        "--json=/results/result.json",
                        "/etc/tcpload/profile/profile.ini");
    }

    @Test
    void connectionsAreSplitWithTheRemainderOnTheFirstRunners() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(3);
        spec.setThreads(1);
        spec.setConnections(11);
        List<String> shares =
                IntStream.range(0, 3).mapToObj(i -> flag(args(spec, i), "--connections=")).toList();
        assertThat(shares).containsExactly("4", "4", "3");
        assertThat(args(spec, 2)).contains("--runner-index=2", "--runner-count=3");
    }

    @Test
    void theRunnersConnectionsAddUpToTheTests() {
        for (int runners = 1; runners <= 7; runners++) {
            for (int total = runners; total < 40; total++) {
                TcpLoadTestSpec spec = Specs.valid();
                spec.setRunners(runners);
                spec.setThreads(1);
                spec.setConnections(total);
                long sum = 0;
                for (int i = 0; i < runners; i++) {
                    long share = RunnerInvocations.forRunner(spec, i).load().connections();
                    assertThat(share).isBetween((long) total / runners, total / runners + 1L);
                    sum += share;
                }
                assertThat(sum).isEqualTo(total);
            }
        }
    }

    @Test
    void theTotalDurationIsTheDurationOrTheStagesSum() {
        TcpLoadTestSpec spec = Specs.valid();
        assertThat(RunnerInvocations.totalDurationMs(spec)).isEqualTo(30_000);
        spec.setDuration(null);
        spec.setStages(List.of(new Stage("30s", 101L), new Stage("1m", 500L)));
        assertThat(RunnerInvocations.totalDurationMs(spec)).isEqualTo(90_000);
    }

    @Test
    void everyInvocationIsOneTheRunnerReadsBack() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(3);
        spec.setConnections(11);
        for (RunnerInvocation invocation :
                List.of(
                        RunnerInvocations.forRunner(spec, 1),
                        RunnerInvocations.forJob(spec),
                        RunnerInvocations.forPod(spec, 8080))) {
            assertThat(RunnerInvocation.parse(invocation.toArgs())).isEqualTo(invocation);
        }
    }

    @Test
    void rateStagesTargetAndKeepAliveBecomeFlags() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(2);
        spec.setDuration(null);
        spec.setStages(List.of(new Stage("30s", 101L), new Stage("1m", 500L)));
        spec.setRate(1001L);
        spec.setKeepAlive(true);
        spec.setTarget(new TargetOverride("payments.bank.svc", 9000));
        List<String> first = args(spec, 0);
        List<String> second = args(spec, 1);
        assertThat(first)
                .contains(
                        "--keepalive",
                        "--target=payments.bank.svc:9000",
                        "--rate=1001",
                        "--stages=30s:101,1m:500")
                .noneMatch(arg -> arg.startsWith("--duration"));
        // The rate is the whole test's: each runner takes its interleaved share by its index.
        assertThat(second).contains("--rate=1001", "--stages=30s:101,1m:500", "--runner-index=1");
    }

    @Test
    void theJobsArgumentsLeaveTheIndexAndTheSplitToTheRunner() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(3);
        spec.setConnections(11);
        List<String> job = RunnerInvocations.forJob(spec).toArgs();
        assertThat(job)
                .contains("--connections=11", "--shared", "--runner-count=3")
                .noneMatch(arg -> arg.startsWith("--runner-index"));
        assertThat(job.get(job.size() - 1)).isEqualTo("/etc/tcpload/profile/profile.ini");
    }

    @Test
    void aPodWaitsForTheStartAndHoldsItsResultOnTheControlPort() {
        List<String> pod = RunnerInvocations.forPod(Specs.valid(), 8080).toArgs();
        assertThat(pod)
                .containsAll(RunnerInvocations.forJob(Specs.valid()).toArgs())
                .contains("--metrics-port=8080", "--await-start", "--hold-result=600");
        assertThat(pod.get(pod.size() - 1)).isEqualTo("/etc/tcpload/profile/profile.ini");
    }

    @Test
    void anIndexOutsideTheRunnersIsRefused() {
        assertThatThrownBy(() -> RunnerInvocations.forRunner(Specs.valid(), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside 0..0");
    }

    private static List<String> args(TcpLoadTestSpec spec, int runner) {
        return RunnerInvocations.forRunner(spec, runner).toArgs();
    }

    private static String flag(List<String> args, String prefix) {
        return args.stream()
                .filter(arg -> arg.startsWith(prefix))
                .findFirst()
                .orElseThrow()
                .substring(prefix.length());
    }

    @Test
    void aDryRunsPodRunsTheRunnersTestWithItsExchangeAsTheTerminationMessage() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(3);
        spec.setThreads(1);
        spec.setDryRun(true);
        spec.setFiles(
                List.of(
                        DataFile.inline("branches.txt", "1\n"),
                        DataFile.fromSecret("cards.txt", new SecretKey("bank", "cards"))));

        List<String> args = RunnerInvocations.podArgs(spec, 8080);

        assertThat(args)
                .startsWith(
                        "--test",
                        "--test-json=/dev/termination-log",
                        "--test-mask-env",
                        "--test-mask-file=cards.txt",
                        "--test-mask-extracted")
                .doesNotContain("--test-mask-file=branches.txt");
        assertThat(RunnerInvocations.pods(spec)).isOne();
        assertThat(RunnerInvocations.dryRunArgs(args)).isTrue();
        // The load's flags parse as every pod's do.
        assertThat(RunnerInvocation.parse(RunnerInvocations.loadArgs(args)))
                .isEqualTo(RunnerInvocations.forPod(spec, 8080));
        spec.setDryRunShowValues(true);
        List<String> shown = RunnerInvocations.podArgs(spec, 8080);
        assertThat(shown)
                .startsWith("--test", "--test-json=/dev/termination-log")
                .noneMatch(arg -> arg.startsWith("--test-mask"));
        assertThat(RunnerInvocation.parse(RunnerInvocations.loadArgs(shown)))
                .isEqualTo(RunnerInvocations.forPod(spec, 8080));
        spec.setDryRunShowValues(null);
        spec.setDryRun(null);
        assertThat(RunnerInvocations.podArgs(spec, 8080))
                .isEqualTo(RunnerInvocations.forPod(spec, 8080).toArgs());
        assertThat(RunnerInvocations.pods(spec)).isEqualTo(3);
    }
}
