package io.tcpload.runner.client;

import io.tcpload.runner.contract.Shares;
import io.tcpload.runner.rate.RateSchedule;

/**
 * How hard and how long to load, independent of what is sent. Immutable.
 *
 * @param threads event loops, at least 1
 * @param connections connections in all, at least {@code threads}; spread evenly over the loops,
 *     the first {@code connections % threads} loops taking one more
 * @param durationMs how long the load runs
 * @param timeoutMs the connect timeout and the response timeout (from the first byte written)
 * @param keepAlive whether a connection carries many requests; otherwise one request per connection
 * @param pipeline requests in flight per keep-alive connection (1 without keep-alive)
 * @param runnerIndex this runner's index in a distributed run (0 when alone); offsets CONNECTID
 * @param runnerCount the runners of a distributed run (1 when alone); each sends its interleaved
 *     share of the rate schedule
 * @param schedule the send schedule of a constant-rate or staged run (wrk2's open model), or {@code
 *     null} for wrk's closed loop, where each connection sends as soon as it may
 * @param staged whether the schedule came from {@code --stages}, so the report has a stage table
 * @param warmupMs load sent before the measured run and left out of every figure, so that the JIT
 *     compiler's first seconds do not show in the percentiles; 0 for none
 */
public record LoadConfig(
        int threads,
        int connections,
        long durationMs,
        long timeoutMs,
        boolean keepAlive,
        int pipeline,
        int runnerIndex,
        int runnerCount,
        RateSchedule schedule,
        boolean staged,
        long warmupMs) {

    public LoadConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        if (connections < threads) {
            throw new IllegalArgumentException(
                    "connections (" + connections + ") must be at least threads (" + threads + ")");
        }
        if (durationMs < 1) {
            throw new IllegalArgumentException("duration must be positive");
        }
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (pipeline < 1) {
            throw new IllegalArgumentException("pipeline must be at least 1");
        }
        if (pipeline > 1 && !keepAlive) {
            throw new IllegalArgumentException("pipelining needs keep-alive connections");
        }
        if (runnerCount < 1 || runnerIndex < 0 || runnerIndex >= runnerCount) {
            throw new IllegalArgumentException(
                    "runner index " + runnerIndex + " is outside 0.." + (runnerCount - 1));
        }
        if (warmupMs < 0) {
            throw new IllegalArgumentException("warm-up must not be negative");
        }
        if (schedule != null && schedule.totalDurationMs() != durationMs) {
            throw new IllegalArgumentException("the duration must be the schedule's");
        }
    }

    /**
     * A closed-loop run (no rate schedule). The runner count only splits a rate schedule, so here
     * it is just large enough to hold the index.
     */
    public LoadConfig(
            int threads,
            int connections,
            long durationMs,
            long timeoutMs,
            boolean keepAlive,
            int pipeline,
            int runnerIndex) {
        this(
                threads,
                connections,
                durationMs,
                timeoutMs,
                keepAlive,
                pipeline,
                runnerIndex,
                runnerIndex + 1,
                null,
                false,
                0);
    }

    /** Whether sends follow a rate schedule (wrk2) rather than the closed loop (wrk). */
    public boolean paced() {
        return schedule != null;
    }

    /** Connections handled by loop {@code loop} (0-based). */
    public int connectionsOfLoop(int loop) {
        return Shares.of(connections, threads, loop);
    }

    /**
     * The global index of loop {@code loop}'s first connection: connections are numbered from 0
     * across the loops of a runner, and a runner's after those of the runners before it, so that
     * each starts a transaction mix at its own place.
     */
    public long firstConnectionIndex(int loop) {
        long index = (long) runnerIndex * connections;
        for (int i = 0; i < loop; i++) {
            index += connectionsOfLoop(i);
        }
        return index;
    }

    /**
     * The CONNECTID of a connection: wrktcp's {@code thread * 10000 + index + 1} with threads
     * counted from 1, plus {@code runnerIndex * 1000000} so that ids never repeat across runner
     * pods.
     */
    public long connectionId(int loop, int indexInLoop) {
        return runnerIndex * 1_000_000L + (loop + 1) * 10_000L + indexInLoop + 1;
    }
}
