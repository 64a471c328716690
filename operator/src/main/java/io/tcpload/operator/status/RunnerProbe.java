package io.tcpload.operator.status;

import io.tcpload.runner.contract.LivePhase;
import io.tcpload.runner.contract.LiveStats;
import io.tcpload.runner.contract.RunnerProtocol;

/**
 * What a runner's {@code /stats} said, as far as the test's state depends on it, or that it could
 * not be reached. Immutable.
 *
 * @param state where the runner is
 * @param protocolVersion the runner protocol it speaks (this operator's for an unreachable one)
 * @param runnerVersion its version, for messages; empty when unknown
 * @param startAtEpochMs the start instant it was told (0 before)
 * @param startEpochUs when its load really began (0 before)
 * @param requests complete responses so far
 * @param successes successful responses so far
 * @param failures failed responses so far
 * @param errors socket errors so far
 * @param tps responses per second in its last second, over that second's real length
 * @param p99Us its cumulative latency p99, in microseconds
 * @param clockOffsetUs the offset of its clock from the operator's that it was told with the
 *     instant (0 before)
 * @param estimatedOffsetUs the operator's estimate of that offset, from the round trips of {@code
 *     /stats} so far (0 before any)
 */
public record RunnerProbe(
        State state,
        int protocolVersion,
        String runnerVersion,
        long startAtEpochMs,
        long startEpochUs,
        long requests,
        long successes,
        long failures,
        long errors,
        double tps,
        long p99Us,
        long clockOffsetUs,
        long estimatedOffsetUs) {

    /** A probe whose runner says nothing of clocks. */
    public RunnerProbe(
            State state,
            int protocolVersion,
            String runnerVersion,
            long startAtEpochMs,
            long startEpochUs,
            long requests,
            long successes,
            long failures,
            long errors,
            double tps,
            long p99Us) {
        this(
                state,
                protocolVersion,
                runnerVersion,
                startAtEpochMs,
                startEpochUs,
                requests,
                successes,
                failures,
                errors,
                tps,
                p99Us,
                0,
                0);
    }

    /** A runner's state, as its {@code /stats} phase says. */
    public enum State {
        UNREACHABLE,
        WAITING,
        READY,
        RUNNING,
        FINISHED;

        /** Ready to start, or past that. */
        public boolean ready() {
            return this == READY || this == RUNNING || this == FINISHED;
        }

        static State of(LivePhase phase) {
            return switch (phase) {
                case WAITING -> WAITING;
                case READY -> READY;
                case RUNNING -> RUNNING;
                case FINISHED -> FINISHED;
            };
        }
    }

    public static final RunnerProbe UNREACHABLE = inState(State.UNREACHABLE);

    /** A runner of this operator's protocol in {@code state}, with no figures yet. */
    public static RunnerProbe inState(State state) {
        return new RunnerProbe(state, RunnerProtocol.VERSION, "", 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** The same, told to start at {@code epochMs}. */
    public RunnerProbe withStartAtEpochMs(long epochMs) {
        return new RunnerProbe(
                state,
                protocolVersion,
                runnerVersion,
                epochMs,
                startEpochUs,
                requests,
                successes,
                failures,
                errors,
                tps,
                p99Us,
                clockOffsetUs,
                estimatedOffsetUs);
    }

    /** The same, its clock estimated {@code offsetUs} ahead of the operator's. */
    public RunnerProbe withEstimatedOffsetUs(long offsetUs) {
        return new RunnerProbe(
                state,
                protocolVersion,
                runnerVersion,
                startAtEpochMs,
                startEpochUs,
                requests,
                successes,
                failures,
                errors,
                tps,
                p99Us,
                clockOffsetUs,
                offsetUs);
    }

    /**
     * Its clock's offset from the operator's as far as its start goes: the one it was told with the
     * instant, once told, else the estimate.
     */
    public long offsetUs() {
        return startAtEpochMs > 0 ? clockOffsetUs : estimatedOffsetUs;
    }

    /** What a runner's {@code /stats} said. */
    public static RunnerProbe of(LiveStats stats) {
        return new RunnerProbe(
                State.of(stats.phase()),
                stats.protocolVersion(),
                stats.runnerVersion() == null ? "" : stats.runnerVersion(),
                stats.startAtEpochMs(),
                stats.startEpochUs(),
                stats.cumulative().requests(),
                stats.cumulative().successes(),
                stats.cumulative().failures(),
                stats.cumulative().errors(),
                stats.lastSecond().tps(),
                stats.latencyUs().p99(),
                stats.clockOffsetUs(),
                0);
    }

    /** Whether the runner speaks another protocol than this operator: it cannot be driven. */
    public boolean incompatible() {
        return state != State.UNREACHABLE && protocolVersion != RunnerProtocol.VERSION;
    }
}
