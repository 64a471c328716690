package io.tcpload.operator.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.runner.RunnerArgs;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LocalArgsTest {
    private static TcpLoadTestSpec spec() {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile("[common]\n");
        spec.setRunners(3);
        spec.setThreads(2);
        spec.setConnections(10);
        spec.setDuration("30s");
        return spec;
    }

    @Test
    void onlyThePodsProfileAndResultPathsChange() {
        List<String> pod = RunnerArgs.forRunner(spec(), 1);
        List<String> local =
                LocalArgs.localize(pod, Path.of("/w/profile.ini"), Path.of("/w/runner-1.json"));

        assertThat(local).hasSameSizeAs(pod);
        assertThat(local).contains("--json=/w/runner-1.json").endsWith("/w/profile.ini");
        assertThat(local).contains("--runner-index=1", "--runner-count=3", "--connections=3");
        List<String> unchanged =
                pod.stream().filter(a -> !a.startsWith("--json=") && !a.startsWith("/")).toList();
        assertThat(local).containsAll(unchanged);
    }

    @Test
    void argumentsWithoutThePodPathsAreAnError() {
        assertThatThrownBy(
                        () ->
                                LocalArgs.localize(
                                        List.of("-t1", "x.ini"), Path.of("p"), Path.of("j")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDurationOverrideReplacesTheDurationOfACopy() {
        TcpLoadTestSpec spec = spec();
        TcpLoadTestSpec shorter = DurationOverride.apply(spec, "2s");
        assertThat(shorter.getDuration()).isEqualTo("2s");
        assertThat(spec.getDuration()).isEqualTo("30s");
        assertThat(shorter.getConnections()).isEqualTo(10);
    }

    @Test
    void aDurationOverrideShortensStagesInProportion() {
        TcpLoadTestSpec spec = spec();
        spec.setDuration(null);
        spec.setStages(
                List.of(new Stage("10s", 200L), new Stage("20s", 200L), new Stage("10s", 0L)));

        TcpLoadTestSpec shorter = DurationOverride.apply(spec, "4s");

        assertThat(shorter.getStages())
                .extracting(Stage::getDuration, Stage::getRate)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("1000ms", 200L),
                        org.assertj.core.groups.Tuple.tuple("2000ms", 200L),
                        org.assertj.core.groups.Tuple.tuple("1000ms", 0L));
        assertThat(spec.getStages().get(0).getDuration()).isEqualTo("10s");
    }

    @Test
    void aBadDurationIsNamed() {
        assertThat(DurationOverride.problem("soon")).isPresent();
        assertThat(DurationOverride.problem("0s")).hasValue("must be at least 1ms");
        assertThat(DurationOverride.problem("500ms")).isEmpty();
    }
}
