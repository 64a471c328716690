package io.tcpload.operator.crd;

/** Where a test is in its one run. */
public enum Phase {
    /** Accepted, nothing created yet. */
    Pending,
    /** Runner pods are being created and waiting for each other. */
    Starting,
    /** The load is running. */
    Running,
    /** Finished, every runner reported and every threshold held. */
    Succeeded,
    /** Invalid, a runner failed or did not start in time, or a threshold was missed. */
    Failed;

    /** Whether the test is over: nothing will change any more. */
    public boolean finished() {
        return this == Succeeded || this == Failed;
    }
}
