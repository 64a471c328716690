package io.tcpload.operator.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RunnerArgsTest {

    @Test
    void aSingleRunnerGetsTheWholeTest() {
        assertThat(RunnerArgs.forRunner(Specs.valid(), 0))
                .containsExactly(
                        "--threads=2",
                        "--connections=10",
                        "--duration=30s",
                        "--timeout=5s",
                        "--latency",
                        "--json=/results/result.json",
                        "--runner-index=0",
                        "--runner-count=1",
                        "/etc/tcpload/profile/profile.ini");
    }

    @Test
    void connectionsAreSplitWithTheRemainderOnTheFirstRunners() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setRunners(3);
        spec.setThreads(1);
        spec.setConnections(11);
        List<String> shares =
                IntStream.range(0, 3)
                        .mapToObj(i -> flag(RunnerArgs.forRunner(spec, i), "--connections="))
                        .toList();
        assertThat(shares).containsExactly("4", "4", "3");
        assertThat(RunnerArgs.forRunner(spec, 2)).contains("--runner-index=2", "--runner-count=3");
    }

    @Test
    void sharesAddUpToTheTotal() {
        for (int runners = 1; runners <= 7; runners++) {
            for (long total = runners; total < 40; total++) {
                long sum = 0;
                for (int i = 0; i < runners; i++) {
                    long share = Shares.of(total, runners, i);
                    assertThat(share).isBetween(total / runners, total / runners + 1);
                    sum += share;
                }
                assertThat(sum).isEqualTo(total);
            }
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
        List<String> first = RunnerArgs.forRunner(spec, 0);
        List<String> second = RunnerArgs.forRunner(spec, 1);
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
        List<String> job = RunnerArgs.forJob(spec);
        assertThat(job)
                .contains("--connections=11", "--shared", "--runner-count=3")
                .noneMatch(arg -> arg.startsWith("--runner-index"));
        assertThat(job.get(job.size() - 1)).isEqualTo("/etc/tcpload/profile/profile.ini");
    }

    @Test
    void aPodWaitsForTheStartAndHoldsItsResultOnTheControlPort() {
        List<String> pod = RunnerArgs.forPod(Specs.valid(), 8080);
        assertThat(pod)
                .containsAll(RunnerArgs.forJob(Specs.valid()))
                .contains("--metrics-port=8080", "--await-start", "--hold-result=600");
        assertThat(pod.get(pod.size() - 1)).isEqualTo("/etc/tcpload/profile/profile.ini");
    }

    @Test
    void anIndexOutsideTheRunnersIsRefused() {
        assertThatThrownBy(() -> RunnerArgs.forRunner(Specs.valid(), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside 0..0");
    }

    private static String flag(List<String> args, String prefix) {
        return args.stream()
                .filter(arg -> arg.startsWith(prefix))
                .findFirst()
                .orElseThrow()
                .substring(prefix.length());
    }
}
