package io.tcpload.operator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpecBuilder;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.kubelet.JobRules.PodOutcome;
import io.tcpload.operator.kubelet.JobRules.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The double's Job controller decides as Kubernetes' does, for the specs that matter here. */
class JobRulesTest {
    private static final PodOutcome RUNNING_0 = new PodOutcome(0, "Running", null, null);
    private static final PodOutcome OOM_1 = new PodOutcome(1, "Failed", 137, null);
    private static final PodOutcome RUNNING_2 = new PodOutcome(2, "Running", null, null);

    private static JobSpec indexed(int completions) {
        return new JobSpecBuilder()
                .withCompletionMode("Indexed")
                .withCompletions(completions)
                .withParallelism(completions)
                .build();
    }

    @Test
    void withOneBudgetForTheJobOneCrashEndsEveryOtherRunner() {
        JobSpec spec = indexed(3);
        spec.setBackoffLimit(0);

        Verdict verdict = JobRules.decide(spec, List.of(RUNNING_0, OOM_1, RUNNING_2));

        assertThat(verdict.condition()).isEqualTo("Failed");
        assertThat(verdict.reason()).isEqualTo("BackoffLimitExceeded");
        assertThat(verdict.terminateActive()).isTrue();
    }

    @Test
    void withABudgetOfNonePerIndexOneCrashFailsItsIndexOnlyAndIsNeverReplaced() {
        JobSpec spec = indexed(3);
        spec.setBackoffLimitPerIndex(0);

        Verdict running = JobRules.decide(spec, List.of(RUNNING_0, OOM_1, RUNNING_2));
        assertThat(running.failedIndexes()).containsExactly(1);
        assertThat(running.terminateActive()).isFalse();
        assertThat(running.replace()).isEmpty();
        assertThat(running.condition()).isNull();

        Verdict done =
                JobRules.decide(
                        spec,
                        List.of(
                                new PodOutcome(0, "Succeeded", 0, null),
                                OOM_1,
                                new PodOutcome(2, "Succeeded", 0, null)));
        assertThat(done.condition()).isEqualTo("Failed");
        assertThat(done.reason()).isEqualTo("FailedIndexes");
    }

    @Test
    void theOperatorsJobFailsOnlyTheIndexOfAFailedRunner() {
        JobSpec spec = DesiredResources.job(Specs.test("pay", Specs.valid()), "runner:1").getSpec();

        Verdict verdict =
                JobRules.decide(
                        spec, List.of(new PodOutcome(0, "Failed", 143, "EvictionByEvictionAPI")));

        assertThat(verdict.failedIndexes()).containsExactly(0);
        assertThat(verdict.replace()).as("no runner starts late").isEmpty();
    }

    @Test
    void anIgnoredDisruptionStartsAReplacementLate() {
        JobSpec spec =
                new JobSpecBuilder(indexed(2))
                        .withBackoffLimitPerIndex(0)
                        .withNewPodFailurePolicy()
                        .addNewRule()
                        .withAction("Ignore")
                        .addNewOnPodCondition()
                        .withType("DisruptionTarget")
                        .withStatus("True")
                        .endOnPodCondition()
                        .endRule()
                        .endPodFailurePolicy()
                        .build();

        Verdict verdict =
                JobRules.decide(
                        spec,
                        List.of(
                                RUNNING_0,
                                new PodOutcome(1, "Failed", 143, "PreemptionByScheduler")));

        assertThat(verdict.failedIndexes()).isEmpty();
        assertThat(verdict.replace()).containsExactly(1);
    }

    @Test
    void aBudgetLeftReplacesTheFailedPodAndFailJobEndsEverything() {
        JobSpec retrying = indexed(3);
        retrying.setBackoffLimitPerIndex(1);
        assertThat(JobRules.decide(retrying, List.of(RUNNING_0, OOM_1, RUNNING_2)).replace())
                .containsExactly(1);

        JobSpec failing =
                new JobSpecBuilder(indexed(3))
                        .withNewPodFailurePolicy()
                        .addNewRule()
                        .withAction("FailJob")
                        .withNewOnExitCodes()
                        .withOperator("In")
                        .withValues(137)
                        .endOnExitCodes()
                        .endRule()
                        .endPodFailurePolicy()
                        .build();
        Verdict verdict = JobRules.decide(failing, List.of(RUNNING_0, OOM_1, RUNNING_2));
        assertThat(verdict.reason()).isEqualTo("PodFailurePolicy");
        assertThat(verdict.terminateActive()).isTrue();
    }

    @Test
    void everyIndexSucceededCompletesTheJob() {
        Verdict verdict =
                JobRules.decide(
                        indexed(2),
                        List.of(
                                new PodOutcome(0, "Succeeded", 0, null),
                                new PodOutcome(1, "Succeeded", 0, null)));
        assertThat(verdict.condition()).isEqualTo("Complete");
    }
}
