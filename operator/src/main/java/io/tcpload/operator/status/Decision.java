package io.tcpload.operator.status;

import io.tcpload.operator.crd.TcpLoadTestStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What to do after a reconcile, the output of {@link StatusComputer}: the next status and the
 * actions that lead to it. Immutable.
 *
 * @param status the status to patch
 * @param createChildren create the ConfigMap and the runner Job (when absent)
 * @param startAtMs tell every runner this start instant (epoch milliseconds) before patching
 * @param finishRunners tell every running runner that its result is in (it then exits)
 * @param deleteChildren delete the Job (and its pods) and the ConfigMap
 * @param events events to record
 * @param writeFirst write the status at once, before any other step, and decide again from it in
 *     the same reconcile: the start instant is recorded before any runner is told it, and is told
 *     right after, by the reconcile that recorded it (a later one may still read the resource as it
 *     was before, and would set another instant)
 * @param requeue when to look again; empty when only a change of the resource matters
 * @param step tell every running runner this step of a capacity search (recorded in the status
 *     before: a step told again is taken again without change)
 * @param endSteps tell every running runner that the capacity search has ended
 */
public record Decision(
        TcpLoadTestStatus status,
        boolean createChildren,
        OptionalLong startAtMs,
        boolean finishRunners,
        boolean deleteChildren,
        List<Event> events,
        boolean writeFirst,
        Optional<Duration> requeue,
        Optional<StepInstruction> step,
        boolean endSteps) {
    public Decision {
        events = List.copyOf(events);
    }
}
