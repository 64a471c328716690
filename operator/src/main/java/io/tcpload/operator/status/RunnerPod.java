package io.tcpload.operator.status;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the operator needs of one runner pod, read from what the kubelet and the scheduler wrote.
 * Pure.
 *
 * @param index the runner's index (the Job completion index)
 * @param name the pod's name; null for a runner run in-process by {@code tcpload run}, which has no
 *     pod
 * @param phase Pending, Running, Succeeded, Failed or Unknown
 * @param podIp the pod's IP, null before it has one
 * @param problem why the pod is not running or why it failed, from its status (unschedulable, image
 *     pull error, crash, OOM kill, eviction, ...); null when there is nothing to say
 * @param terminating why the pod is going away while it may still run (its runner got SIGTERM and
 *     serves its partial result through the grace period): the reason of its {@code
 *     DisruptionTarget} condition ({@code EvictionByEvictionAPI}, {@code PreemptionByScheduler},
 *     ...), or {@code deleted}; null for a pod with no deletion timestamp
 * @param endedAt when its runner container ended, null while it has not
 * @param terminationMessage the runner container's termination message once it ended, whatever its
 *     exit code (a dry run's exchange, or with {@code FallbackToLogsOnError} a failed runner's last
 *     lines); null while it runs or when it left none
 */
public record RunnerPod(
        int index,
        String name,
        String phase,
        String podIp,
        String problem,
        String terminating,
        Instant endedAt,
        String terminationMessage) {
    /** A pod that is not going away and whose runner has not ended. */
    public RunnerPod(int index, String name, String phase, String podIp, String problem) {
        this(index, name, phase, podIp, problem, null, null, null);
    }

    /** A pod with no termination message read. */
    public RunnerPod(
            int index,
            String name,
            String phase,
            String podIp,
            String problem,
            String terminating,
            Instant endedAt) {
        this(index, name, phase, podIp, problem, terminating, endedAt, null);
    }

    /** The label (and annotation) carrying a Job pod's completion index. */
    public static final String INDEX_LABEL = "batch.kubernetes.io/job-completion-index";

    public boolean failed() {
        return "Failed".equals(phase);
    }

    public boolean running() {
        return "Running".equals(phase) && podIp != null && !podIp.isEmpty();
    }

    /** The pod's runner index, from its label or annotation; empty when it has none. */
    public static Optional<Integer> indexOf(Pod pod) {
        for (Map<String, String> map :
                List.of(
                        nonNull(pod.getMetadata().getLabels()),
                        nonNull(pod.getMetadata().getAnnotations()))) {
            String value = map.get(INDEX_LABEL);
            if (value != null) {
                try {
                    return Optional.of(Integer.parseInt(value));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** The runner pod of {@code pod}, when it has an index. */
    public static Optional<RunnerPod> of(Pod pod) {
        return indexOf(pod)
                .map(
                        index -> {
                            PodStatus status = pod.getStatus();
                            String phase =
                                    status == null || status.getPhase() == null
                                            ? "Pending"
                                            : status.getPhase();
                            return new RunnerPod(
                                    index,
                                    pod.getMetadata().getName(),
                                    phase,
                                    status == null ? null : status.getPodIP(),
                                    problem(status),
                                    pod.getMetadata().getDeletionTimestamp() == null
                                            ? null
                                            : disruption(status).orElse("deleted"),
                                    endedAt(status),
                                    terminationMessage(status));
                        });
    }

    /** The termination message of the first container that ended, if it left one. */
    static String terminationMessage(PodStatus status) {
        if (status == null) {
            return null;
        }
        for (ContainerStatus container : nonNull(status.getContainerStatuses())) {
            if (container.getState() != null && container.getState().getTerminated() != null) {
                return container.getState().getTerminated().getMessage();
            }
        }
        return null;
    }

    /** The reason of the pod's {@code DisruptionTarget} condition, when it has one. */
    static Optional<String> disruption(PodStatus status) {
        if (status == null) {
            return Optional.empty();
        }
        return nonNull(status.getConditions()).stream()
                .filter(c -> "DisruptionTarget".equals(c.getType()))
                .filter(c -> "True".equals(c.getStatus()))
                .map(c -> c.getReason() == null ? "DisruptionTarget" : c.getReason())
                .findFirst();
    }

    /** When the runner container ended (its terminated state's finish time), if it has. */
    static Instant endedAt(PodStatus status) {
        if (status == null) {
            return null;
        }
        for (ContainerStatus container : nonNull(status.getContainerStatuses())) {
            if (container.getState() != null
                    && container.getState().getTerminated() != null
                    && container.getState().getTerminated().getFinishedAt() != null) {
                try {
                    return Instant.parse(container.getState().getTerminated().getFinishedAt());
                } catch (DateTimeParseException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * The first thing in the pod's status that explains trouble, as a short phrase: {@code REASON:
     * details}, the reason first, as {@code StatusComputer} reads it. An init container's trouble
     * comes first (while one runs or failed, the runner waits in PodInitializing, which says
     * nothing). A terminated container's message is its termination message: with the runner's
     * {@code FallbackToLogsOnError}, the last lines it printed (the kubelet keeps at most 80 lines,
     * 2 KiB), of which the last four are kept here, on one line; none for a container killed by a
     * signal.
     */
    static String problem(PodStatus status) {
        if (status == null) {
            return null;
        }
        for (ContainerStatus init : nonNull(status.getInitContainerStatuses())) {
            if (init.getState() == null) {
                continue;
            }
            String which = "init container " + init.getName();
            ContainerStateTerminated terminated = init.getState().getTerminated();
            if (terminated != null
                    && (terminated.getExitCode() == null || terminated.getExitCode() != 0)) {
                return join(
                        terminated.getReason(),
                        which + ", exit code " + terminated.getExitCode(),
                        terminated.getMessage());
            }
            ContainerStateWaiting waiting = init.getState().getWaiting();
            if (waiting != null
                    && waiting.getReason() != null
                    && !"PodInitializing".equals(waiting.getReason())) {
                return join(waiting.getReason(), which, waiting.getMessage());
            }
        }
        for (ContainerStatus container : nonNull(status.getContainerStatuses())) {
            if (container.getState() == null) {
                continue;
            }
            ContainerStateTerminated terminated = container.getState().getTerminated();
            if (terminated != null
                    && (terminated.getExitCode() == null || terminated.getExitCode() != 0)) {
                return join(
                        terminated.getReason(),
                        "exit code " + terminated.getExitCode(),
                        lastWords(terminated));
            }
            ContainerStateWaiting waiting = container.getState().getWaiting();
            if (waiting != null && waiting.getReason() != null) {
                return join(waiting.getReason(), waiting.getMessage(), null);
            }
        }
        if (status.getReason() != null) {
            return join(status.getReason(), status.getMessage(), null);
        }
        for (PodCondition condition : nonNull(status.getConditions())) {
            if ("PodScheduled".equals(condition.getType())
                    && "False".equals(condition.getStatus())) {
                return join(
                        condition.getReason() != null ? condition.getReason() : "Unschedulable",
                        condition.getMessage(),
                        null);
            }
        }
        return null;
    }

    /** At most this many of a message's last lines are quoted. */
    static final int MESSAGE_LINES = 4;

    /** And at most this many characters of them. */
    static final int MESSAGE_CHARS = 400;

    /**
     * What a failed container said: its termination message (with {@code FallbackToLogsOnError},
     * the tail of its log, where the runner's errors are last), quoted as {@link #oneLine} does.
     * Nothing for a container killed by a signal (exit code above 128: OOMKilled, SIGKILL): its log
     * only tells what it was doing, and the reason says why it ended.
     */
    static String lastWords(ContainerStateTerminated terminated) {
        String message = terminated.getMessage();
        if (message == null
                || message.isBlank()
                || (terminated.getExitCode() != null && terminated.getExitCode() > 128)) {
            return null;
        }
        return message;
    }

    private static String join(String first, String second, String third) {
        StringBuilder text = new StringBuilder(first != null ? first : "Error");
        for (String part : new String[] {second, third}) {
            if (part != null && !part.isBlank()) {
                text.append(": ").append(oneLine(part));
            }
        }
        return text.toString();
    }

    /**
     * The last {@link #MESSAGE_LINES} lines, joined by "; ", blank ones left out, and at most the
     * last {@link #MESSAGE_CHARS} characters of them: a status message is read as one line, and a
     * runner's error is its last words.
     */
    private static String oneLine(String text) {
        List<String> lines =
                text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList();
        String joined =
                String.join(
                        "; ",
                        lines.subList(Math.max(0, lines.size() - MESSAGE_LINES), lines.size()));
        return joined.length() <= MESSAGE_CHARS
                ? joined
                : "..." + joined.substring(joined.length() - MESSAGE_CHARS);
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static Map<String, String> nonNull(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }
}
