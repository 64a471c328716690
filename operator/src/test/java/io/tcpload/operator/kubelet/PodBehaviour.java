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
 * @param clockOffset how far the pod's node's wall clock is ahead of the operator's (behind when
 *     negative): its runner keeps the start instant on that clock
 */
public record PodBehaviour(
        String neverReadyReason,
        Duration killAfter,
        String killReason,
        String refusal,
        Duration clockOffset) {
    public static final PodBehaviour NORMAL = new PodBehaviour(null, null, null, null);

    public PodBehaviour(
            String neverReadyReason, Duration killAfter, String killReason, String refusal) {
        this(neverReadyReason, killAfter, killReason, refusal, Duration.ZERO);
    }

    /** A normal pod on a node whose clock is {@code offset} ahead of the operator's. */
    public static PodBehaviour clockAhead(Duration offset) {
        return new PodBehaviour(null, null, null, null, offset);
    }

    public static PodBehaviour neverReady(String reason) {
        return new PodBehaviour(reason, null, null, null);
    }

    public static PodBehaviour killedAfter(Duration after, String reason) {
        return new PodBehaviour(null, after, reason, null);
    }

    public static PodBehaviour refused(String message) {
        return new PodBehaviour(null, null, null, message);
    }
}
