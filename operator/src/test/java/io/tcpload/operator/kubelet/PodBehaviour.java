package io.tcpload.operator.kubelet;

import java.time.Duration;

/**
 * What the kubelet double does with one runner pod.
 *
 * @param neverReadyReason when not null, the container never starts and waits with this reason (as
 *     {@code ImagePullBackOff})
 * @param killAfter when not null, the runner is killed this long after it started running
 * @param killReason the terminated reason written for a killed runner ({@code OOMKilled}, ...)
 * @param refusal when not null, admission refuses the pod with this message (Pod Security, a quota,
 *     a webhook): it is never created, and the Job controller records {@code FailedCreate}
 * @param asProcess whether the runner runs as a process of its own (real signals: deletion,
 *     eviction and node loss) instead of in a thread of the test's JVM (quicker to start)
 * @param clockOffset how far the pod's node's wall clock is ahead of the operator's (behind when
 *     negative): its runner keeps the start instant on that clock (runners in a thread only)
 */
public record PodBehaviour(
        String neverReadyReason,
        Duration killAfter,
        String killReason,
        String refusal,
        boolean asProcess,
        Duration clockOffset) {
    public static final PodBehaviour NORMAL = new PodBehaviour(null, null, null, null, false);

    /** A normal runner in a process of its own. */
    public static final PodBehaviour PROCESS = new PodBehaviour(null, null, null, null, true);

    public PodBehaviour(
            String neverReadyReason,
            Duration killAfter,
            String killReason,
            String refusal,
            boolean asProcess) {
        this(neverReadyReason, killAfter, killReason, refusal, asProcess, Duration.ZERO);
    }

    /** A normal pod on a node whose clock is {@code offset} ahead of the operator's. */
    public static PodBehaviour clockAhead(Duration offset) {
        return new PodBehaviour(null, null, null, null, false, offset);
    }

    public static PodBehaviour neverReady(String reason) {
        return new PodBehaviour(reason, null, null, null, false);
    }

    public static PodBehaviour killedAfter(Duration after, String reason) {
        return new PodBehaviour(null, after, reason, null, false);
    }

    public static PodBehaviour refused(String message) {
        return new PodBehaviour(null, null, null, message, false);
    }

    /** The same, its runner in a process of its own. */
    public PodBehaviour inProcess() {
        return new PodBehaviour(
                neverReadyReason, killAfter, killReason, refusal, true, clockOffset);
    }
}
