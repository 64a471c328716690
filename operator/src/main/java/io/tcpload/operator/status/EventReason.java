package io.tcpload.operator.status;

/**
 * The reasons of the Kubernetes events the operator records on a test; a fixed set, so that alerts
 * and {@code kubectl get events --field-selector reason=...} can rely on them.
 */
public enum EventReason {
    /** The spec or its profile is invalid; nothing was created. */
    InvalidSpec(true),
    /** The spec is valid; the ConfigMap and the runner Job were created. */
    RunnersCreated(false),
    /** Every runner is ready; the start instant is set. */
    RunnersReady(false),
    /** The runners were told the start instant. */
    Started(false),
    /** Not every runner was ready within startTimeoutSeconds. */
    StartTimeout(true),
    /**
     * A runner speaks another runner protocol than the operator: its image is of another version.
     */
    RunnerIncompatible(true),
    /**
     * The cluster refused to create or start the runner pods (Pod Security, a quota, a webhook, a
     * volume that cannot be mounted), with its own message.
     */
    RunnersRefused(true),
    /** Every retry of a reconcile failed; the test was given up. */
    ReconcileFailed(true),
    /**
     * A runner was told another start instant than the one the operator recorded: something else
     * steered it.
     */
    StartInstantMismatch(true),
    /** A runner crashed, was evicted or OOM-killed, or never reported. */
    RunnerFailed(true),
    /** Every runner reported and every threshold held. */
    Succeeded(false),
    /** Every runner reported, and some thresholds did not hold. */
    ThresholdsMissed(true),
    /** A dry run ended, and some responses were not a success. */
    DryRunFailed(true),
    /** The spec was changed after the test started; the change is not applied. */
    SpecChangeRefused(true),
    /** A step of a capacity search ran on every runner and was judged: held, or why not. */
    StepJudged(false),
    /** A capacity search ended without a rate that held its confirmation step. */
    CapacityNotFound(true),
    /** The Job and ConfigMap were deleted after ttlSecondsAfterFinished. */
    CleanedUp(false);

    private final boolean warning;

    EventReason(boolean warning) {
        this.warning = warning;
    }

    /** Whether the event is a Warning (else Normal). */
    public boolean warning() {
        return warning;
    }
}
