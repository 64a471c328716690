package io.tcpload.runner.contract;

import java.util.concurrent.TimeUnit;

/**
 * The one table of what a runner can be asked for. The command line refuses more, the operator's
 * validator refuses a spec that would ask a runner for more, and the CRD's bounds are these
 * constants, so that the three never disagree. Each bound is far above what a real test needs and
 * low enough that asking for it fails with a message instead of exhausting memory.
 */
public final class RunnerLimits {
    /** Runner pods of one test. */
    public static final int RUNNERS_MAX = 1_000;

    /** Event loops of one runner: more than the cores of any machine it runs on. */
    public static final int THREADS_MAX = 256;

    /** Connections of one runner; each costs a file descriptor and some kilobytes. */
    public static final int CONNECTIONS_MAX = 1_000_000;

    /** Connections of a whole test: every runner at its own limit. */
    public static final long TEST_CONNECTIONS_MAX = (long) RUNNERS_MAX * CONNECTIONS_MAX;

    /**
     * Requests in flight on one keep-alive connection. High on purpose: a deep pipeline against a
     * server that stops reading is a test of back-pressure, and the engine queues only what the
     * connection can take.
     */
    public static final int PIPELINE_MAX = 1_000_000;

    /** How long one run may load (its duration, or its stages together): 30 days. */
    public static final long DURATION_MAX_MS = TimeUnit.DAYS.toMillis(30);

    /** The connect and response timeout: an hour. */
    public static final long TIMEOUT_MAX_MS = TimeUnit.HOURS.toMillis(1);

    /** The warm-up before the measured run: an hour. */
    public static final long WARMUP_MAX_MS = TimeUnit.HOURS.toMillis(1);

    /** How long a finished runner holds its result for the orchestrator: a day. */
    public static final int HOLD_RESULT_MAX_SECONDS = (int) TimeUnit.DAYS.toSeconds(1);

    /** Stages of a rate schedule: more than anyone writes by hand. */
    public static final int STAGES_MAX = 10_000;

    /** Requests per second of a whole test. */
    public static final double RATE_MAX = 1e9;

    /**
     * Named requests of one transaction mix ({@code [request.NAME]} sections): each becomes a
     * metric label value, a row of the report and of the status.
     */
    public static final int REQUEST_NAMES_MAX = 32;

    /**
     * The weight of one named request: finer shares than a thousandth mean nothing over a run, and
     * the bound keeps one round of the mix's order small.
     */
    public static final int REQUEST_WEIGHT_MAX = 1_000;

    private RunnerLimits() {}
}
