package io.tcpload.runner.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.contract.RunnerInvocation;
import io.tcpload.runner.contract.RunnerProtocol;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where a runner's endpoint binds, and whether its control paths need a token. */
class RunPlanBindTest {
    private static final RunnerInvocation AWAITING =
            RunnerInvocation.parse(
                    List.of("-c1", "-d1s", "--await-start", "--metrics-port=0", "profile.ini"));

    @Test
    void withATokenTheRunnerBindsThePodsAddressAndGuardsItsControl() throws Exception {
        RunPlan plan =
                RunPlan.of(
                        AWAITING,
                        Map.of(
                                        RunnerProtocol.BIND_HOST_VARIABLE, "10.1.2.3",
                                        RunnerProtocol.CONTROL_TOKEN_VARIABLE, "secret")
                                ::get);

        assertThat(plan.bindHost()).isEqualTo("10.1.2.3");
        assertThat(plan.controlToken()).isPresent();
        assertThat(plan.controlToken().get().admits("Bearer secret")).isTrue();
        assertThat(plan.toString()).doesNotContain("secret");
    }

    @Test
    void withoutATokenTheRunnerStaysOnLoopbackWhateverTheEnvironmentSays() throws Exception {
        RunPlan plan =
                RunPlan.of(AWAITING, Map.of(RunnerProtocol.BIND_HOST_VARIABLE, "10.1.2.3")::get);

        assertThat(plan.bindHost()).isEqualTo("127.0.0.1");
        assertThat(plan.controlToken()).isEmpty();
    }
}
