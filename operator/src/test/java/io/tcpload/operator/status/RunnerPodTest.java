package io.tcpload.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import org.junit.jupiter.api.Test;

/** A pod's trouble, read from its status as the scheduler and the kubelet write it. */
class RunnerPodTest {
    private static Pod pod(PodStatus status) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("pay-runners-2-abcde")
                .addToLabels(RunnerPod.INDEX_LABEL, "2")
                .endMetadata()
                .withStatus(status)
                .build();
    }

    @Test
    void anUnschedulablePodSaysWhy() {
        RunnerPod pod =
                RunnerPod.of(
                                pod(
                                        new PodStatusBuilder()
                                                .withPhase("Pending")
                                                .addNewCondition()
                                                .withType("PodScheduled")
                                                .withStatus("False")
                                                .withReason("Unschedulable")
                                                .withMessage(
                                                        "0/3 nodes are available: 3 Insufficient cpu.")
                                                .endCondition()
                                                .build()))
                        .orElseThrow();

        assertThat(pod.index()).isEqualTo(2);
        assertThat(pod.running()).isFalse();
        assertThat(pod.problem())
                .isEqualTo("Unschedulable: 0/3 nodes are available: 3 Insufficient cpu.");
    }

    @Test
    void anOomKilledContainerGivesItsReasonAndExitCode() {
        RunnerPod pod =
                RunnerPod.of(
                                pod(
                                        new PodStatusBuilder()
                                                .withPhase("Failed")
                                                .withPodIP("10.1.2.3")
                                                .withContainerStatuses(
                                                        new ContainerStatusBuilder()
                                                                .withName("runner")
                                                                .withNewState()
                                                                .withNewTerminated()
                                                                .withExitCode(137)
                                                                .withReason("OOMKilled")
                                                                .withMessage("Running 30s loadtest")
                                                                .endTerminated()
                                                                .endState()
                                                                .build())
                                                .build()))
                        .orElseThrow();

        assertThat(pod.failed()).isTrue();
        assertThat(pod.problem()).isEqualTo("OOMKilled: exit code 137");
    }

    private static String problemOfTerminated(int exitCode, String reason, String message) {
        return RunnerPod.of(
                        pod(
                                new PodStatusBuilder()
                                        .withPhase("Failed")
                                        .withContainerStatuses(
                                                new ContainerStatusBuilder()
                                                        .withName("runner")
                                                        .withNewState()
                                                        .withNewTerminated()
                                                        .withExitCode(exitCode)
                                                        .withReason(reason)
                                                        .withMessage(message)
                                                        .endTerminated()
                                                        .endState()
                                                        .build())
                                        .build()))
                .orElseThrow()
                .problem();
    }

    @Test
    void aFailedRunnersLastLogLinesAreQuotedOnOneLine() {
        // FallbackToLogsOnError: the kubelet's message is the tail of the container's log.
        String log =
                "Running 3s loadtest @ pay:9000\n\n"
                        + "tcpload-runner: profile.ini: line 4: rsp_code_type: 'yaml' is not one"
                        + " of fixed, xml, json\n"
                        + "tcpload-runner: profile.ini: line 9: unknown key 'rsp_cod'\n";

        assertThat(problemOfTerminated(2, "Error", log))
                .isEqualTo(
                        "Error: exit code 2: Running 3s loadtest @ pay:9000; tcpload-runner:"
                                + " profile.ini: line 4: rsp_code_type: 'yaml' is not one of"
                                + " fixed, xml, json; tcpload-runner: profile.ini: line 9:"
                                + " unknown key 'rsp_cod'");
        assertThat(problemOfTerminated(1, "Error", "x\n".repeat(10) + "last\n"))
                .isEqualTo("Error: exit code 1: x; x; x; last");
        assertThat(problemOfTerminated(1, "Error", "y".repeat(1000)))
                .hasSize("Error: exit code 1: ".length() + 3 + RunnerPod.MESSAGE_CHARS);
    }

    @Test
    void aContainerKilledBySignalIsNamedByItsReasonNotItsLog() {
        assertThat(problemOfTerminated(137, "OOMKilled", "tcpload-runner: ready\n"))
                .isEqualTo("OOMKilled: exit code 137");
    }

    @Test
    void anEvictedPodAndAnImagePullBackOffAreNamed() {
        PodStatus evicted =
                new PodStatusBuilder()
                        .withPhase("Failed")
                        .withReason("Evicted")
                        .withMessage("The node was low on resource: memory.")
                        .build();
        PodStatus pulling =
                new PodStatusBuilder()
                        .withPhase("Pending")
                        .withContainerStatuses(
                                new ContainerStatusBuilder()
                                        .withName("runner")
                                        .withNewState()
                                        .withNewWaiting()
                                        .withReason("ImagePullBackOff")
                                        .withMessage("Back-off pulling image")
                                        .endWaiting()
                                        .endState()
                                        .build())
                        .build();

        assertThat(RunnerPod.of(pod(evicted)).orElseThrow().problem())
                .isEqualTo("Evicted: The node was low on resource: memory.");
        assertThat(RunnerPod.of(pod(pulling)).orElseThrow().problem())
                .isEqualTo("ImagePullBackOff: Back-off pulling image");
    }

    @Test
    void aPodWithoutAnIndexIsNotARunner() {
        assertThat(
                        RunnerPod.of(
                                new PodBuilder()
                                        .withNewMetadata()
                                        .withName("x")
                                        .endMetadata()
                                        .build()))
                .isEmpty();
    }

    /**
     * A runner that exits with an error leaves its last lines in its terminated state
     * (FallbackToLogsOnError), and the last five become the problem, on one line.
     */
    @Test
    void aRunnersLastLogLinesAreItsProblem() {
        RunnerPod pod =
                RunnerPod.of(
                                pod(
                                        new PodStatusBuilder()
                                                .withPhase("Failed")
                                                .withContainerStatuses(
                                                        new ContainerStatusBuilder()
                                                                .withName("runner")
                                                                .withNewState()
                                                                .withNewTerminated()
                                                                .withExitCode(2)
                                                                .withReason("Error")
                                                                .withMessage(
                                                                        "Running 30s loadtest\n"
                                                                                + "a\nb\nc\n"
                                                                                + "tcpload-runner: line 7:"
                                                                                + " rsp_code_type: must"
                                                                                + " be fixed or json or"
                                                                                + " xml\n\n"
                                                                                + "tcpload-runner:"
                                                                                + " TCPLOAD_RUNNER_INDEX"
                                                                                + " must be a runner"
                                                                                + " index (got 'x')\n")
                                                                .endTerminated()
                                                                .endState()
                                                                .build())
                                                .build()))
                        .orElseThrow();

        assertThat(pod.problem())
                .isEqualTo(
                        "Error: exit code 2: b; c; tcpload-runner: line 7: rsp_code_type: must be fixed"
                                + " or json or xml; tcpload-runner: TCPLOAD_RUNNER_INDEX must be a"
                                + " runner index (got 'x')");
    }

    @Test
    void anInitContainersTroubleComesBeforeTheWaitingRunner() {
        ContainerStatusBuilder initializing =
                new ContainerStatusBuilder()
                        .withName("runner")
                        .withNewState()
                        .withNewWaiting()
                        .withReason("PodInitializing")
                        .endWaiting()
                        .endState();
        PodStatus failed =
                new PodStatusBuilder()
                        .withPhase("Failed")
                        .withInitContainerStatuses(
                                new ContainerStatusBuilder()
                                        .withName("wait-for-target")
                                        .withNewState()
                                        .withNewTerminated()
                                        .withExitCode(1)
                                        .withReason("Error")
                                        .withMessage("nc: bad address 'target'")
                                        .endTerminated()
                                        .endState()
                                        .build())
                        .withContainerStatuses(initializing.build())
                        .build();
        PodStatus pulling =
                new PodStatusBuilder()
                        .withPhase("Pending")
                        .withInitContainerStatuses(
                                new ContainerStatusBuilder()
                                        .withName("setup")
                                        .withNewState()
                                        .withNewWaiting()
                                        .withReason("ImagePullBackOff")
                                        .withMessage("Back-off pulling image \"busybox:nope\"")
                                        .endWaiting()
                                        .endState()
                                        .build())
                        .withContainerStatuses(initializing.build())
                        .build();
        PodStatus initialised =
                new PodStatusBuilder()
                        .withPhase("Pending")
                        .withInitContainerStatuses(
                                new ContainerStatusBuilder()
                                        .withName("setup")
                                        .withNewState()
                                        .withNewTerminated()
                                        .withExitCode(0)
                                        .withReason("Completed")
                                        .endTerminated()
                                        .endState()
                                        .build())
                        .withContainerStatuses(
                                new ContainerStatusBuilder()
                                        .withName("runner")
                                        .withNewState()
                                        .withNewWaiting()
                                        .withReason("ContainerCreating")
                                        .endWaiting()
                                        .endState()
                                        .build())
                        .build();

        assertThat(RunnerPod.of(pod(failed)).orElseThrow().problem())
                .isEqualTo(
                        "Error: init container wait-for-target, exit code 1: nc: bad address"
                                + " 'target'");
        assertThat(RunnerPod.of(pod(pulling)).orElseThrow().problem())
                .isEqualTo(
                        "ImagePullBackOff: init container setup: Back-off pulling image"
                                + " \"busybox:nope\"");
        assertThat(RunnerPod.of(pod(initialised)).orElseThrow().problem())
                .isEqualTo("ContainerCreating");
    }
}
