package io.tcpload.operator.kubelet;

import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnExitCodesRequirement;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyOnPodConditionsPattern;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the Job controller decides for an Indexed Job from its pods' outcomes, as the semantics page
 * describes it: the pod failure policy's rules in order ({@code FailJob}, {@code FailIndex}, {@code
 * Ignore}, {@code Count}); with {@code backoffLimitPerIndex} a budget per index, failed indexes
 * listed while the others run on, and {@code maxFailedIndexes}; otherwise one {@code backoffLimit}
 * (default 6) for the whole Job, past which every running pod is terminated; a replacement pod for
 * a failed index while its budget lasts, and for an ignored failure. Pure.
 */
final class JobRules {
    /** Kubernetes' default {@code backoffLimit}. */
    static final int DEFAULT_BACKOFF_LIMIT = 6;

    /**
     * One pod of the Job as the controller sees it.
     *
     * @param index its completion index
     * @param phase Pending, Running, Succeeded or Failed
     * @param exitCode the runner container's exit code once it ended
     * @param disruption the reason of its {@code DisruptionTarget} condition, null without one
     */
    record PodOutcome(int index, String phase, Integer exitCode, String disruption) {
        boolean failed() {
            return "Failed".equals(phase);
        }

        boolean succeeded() {
            return "Succeeded".equals(phase);
        }

        boolean active() {
            return !failed() && !succeeded();
        }
    }

    /**
     * The controller's verdict.
     *
     * @param failedIndexes indexes that failed for good
     * @param failedPods failures counted against the budgets
     * @param condition {@code Complete} or {@code Failed} once the Job is done, else null
     * @param reason why it failed ({@code BackoffLimitExceeded}, {@code FailedIndexes}, {@code
     *     MaxFailedIndexesExceeded}, {@code PodFailurePolicy})
     * @param terminateActive whether every pod still running is to be terminated
     * @param replace indexes that get a new pod
     */
    record Verdict(
            TreeSet<Integer> failedIndexes,
            int failedPods,
            String condition,
            String reason,
            boolean terminateActive,
            List<Integer> replace) {}

    private JobRules() {}

    static Verdict decide(JobSpec spec, List<PodOutcome> pods) {
        int completions = spec.getCompletions() == null ? 1 : spec.getCompletions();
        Map<Integer, Integer> counted = new TreeMap<>();
        TreeSet<Integer> failedIndexes = new TreeSet<>();
        TreeSet<Integer> succeeded = new TreeSet<>();
        TreeSet<Integer> active = new TreeSet<>();
        List<Integer> ignored = new ArrayList<>();
        boolean failJob = false;
        int failedPods = 0;
        for (PodOutcome pod : pods) {
            if (pod.succeeded()) {
                succeeded.add(pod.index());
            } else if (pod.active()) {
                active.add(pod.index());
            } else {
                String action = action(spec, pod);
                switch (action) {
                    case "FailJob" -> {
                        failJob = true;
                        failedPods++;
                    }
                    case "FailIndex" -> {
                        failedIndexes.add(pod.index());
                        failedPods++;
                    }
                    case "Ignore" -> ignored.add(pod.index());
                    default -> {
                        counted.merge(pod.index(), 1, Integer::sum);
                        failedPods++;
                    }
                }
            }
        }
        List<Integer> replace = new ArrayList<>();
        Integer perIndex = spec.getBackoffLimitPerIndex();
        if (failJob) {
            return new Verdict(
                    failedIndexes, failedPods, "Failed", "PodFailurePolicy", true, replace);
        }
        if (perIndex != null) {
            counted.forEach(
                    (index, failures) -> {
                        if (failures > perIndex) {
                            failedIndexes.add(index);
                        }
                    });
            Integer max = spec.getMaxFailedIndexes();
            if (max != null && failedIndexes.size() > max) {
                return new Verdict(
                        failedIndexes,
                        failedPods,
                        "Failed",
                        "MaxFailedIndexesExceeded",
                        true,
                        replace);
            }
            for (int index = 0; index < completions; index++) {
                boolean retried = counted.containsKey(index) || ignored.contains(index);
                if (retried
                        && !failedIndexes.contains(index)
                        && !succeeded.contains(index)
                        && !active.contains(index)) {
                    replace.add(index);
                }
            }
            boolean done =
                    succeeded.size() + failedIndexes.size() >= completions
                            && replace.isEmpty()
                            && active.isEmpty();
            String condition = !done ? null : failedIndexes.isEmpty() ? "Complete" : "Failed";
            return new Verdict(
                    failedIndexes,
                    failedPods,
                    condition,
                    "Failed".equals(condition) ? "FailedIndexes" : null,
                    false,
                    replace);
        }
        int limit = spec.getBackoffLimit() == null ? DEFAULT_BACKOFF_LIMIT : spec.getBackoffLimit();
        int failures = counted.values().stream().mapToInt(Integer::intValue).sum();
        if (failures > limit || !failedIndexes.isEmpty()) {
            // One budget for the Job: past it, the controller ends every pod still running.
            return new Verdict(
                    failedIndexes, failedPods, "Failed", "BackoffLimitExceeded", true, replace);
        }
        for (int index = 0; index < completions; index++) {
            boolean retried = counted.containsKey(index) || ignored.contains(index);
            if (retried && !succeeded.contains(index) && !active.contains(index)) {
                replace.add(index);
            }
        }
        String condition = succeeded.size() >= completions ? "Complete" : null;
        return new Verdict(failedIndexes, failedPods, condition, null, false, replace);
    }

    /** The action of the first matching rule of the pod failure policy; {@code Count} else. */
    private static String action(JobSpec spec, PodOutcome pod) {
        if (spec.getPodFailurePolicy() == null) {
            return "Count";
        }
        for (PodFailurePolicyRule rule : spec.getPodFailurePolicy().getRules()) {
            if (matches(rule, pod)) {
                return rule.getAction();
            }
        }
        return "Count";
    }

    private static boolean matches(PodFailurePolicyRule rule, PodOutcome pod) {
        PodFailurePolicyOnExitCodesRequirement codes = rule.getOnExitCodes();
        if (codes != null) {
            if (pod.exitCode() == null) {
                return false;
            }
            boolean listed = codes.getValues().contains(pod.exitCode());
            return "In".equals(codes.getOperator()) ? listed : !listed;
        }
        for (PodFailurePolicyOnPodConditionsPattern pattern : rule.getOnPodConditions()) {
            if ("DisruptionTarget".equals(pattern.getType())
                    && pod.disruption() != null
                    && !"False".equals(pattern.getStatus())) {
                return true;
            }
        }
        return false;
    }
}
