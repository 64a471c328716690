package io.tcpload.runner.contract;

import java.util.List;

/**
 * How an orchestrator (the operator, local mode) and a runner talk: the runner's HTTP paths, the
 * environment variables a runner pod is given, and the version of the protocol, which {@link
 * #STATS} carries so that an operator meeting a runner of another version stops at once with both
 * versions named instead of misreading it. The JSON shapes are {@link LiveStats} for {@link #STATS}
 * and the runner's result ({@code report.JsonResult}) for {@link #RESULT}.
 *
 * <p>Raise {@link #VERSION} with any change an older peer would misread: a path, a parameter, a
 * field renamed or given another meaning. Adding a field an older peer may ignore is not one.
 */
public final class RunnerProtocol {
    /** The version of this protocol. */
    public static final int VERSION = 3;

    /** GET: Prometheus text or OpenMetrics, as the scraper's {@code Accept} asks. */
    public static final String METRICS = "/metrics";

    /** GET: {@link LiveStats} as JSON. */
    public static final String STATS = "/stats";

    /** GET: 200 while the process serves. */
    public static final String HEALTHZ = "/healthz";

    /** GET: 200 once the load has started, or waits armed for its start instant; 503 before. */
    public static final String READYZ = "/readyz";

    /**
     * POST {@code /start?at=EPOCH_MS&offsetUs=OFFSET}: the start instant on the orchestrator's
     * clock, and the runner's clock offset from it. 200 when set (or set to the same before), 409
     * when another was set, 400 when the instant is not a number or out of range; 401 without the
     * control token.
     */
    public static final String START = "/start";

    /** The query parameter of {@link #START}: milliseconds since the epoch. */
    public static final String START_AT = "at";

    /**
     * The query parameter of {@link #START}: the runner's clock minus the orchestrator's, in
     * microseconds, as the orchestrator estimated it (0 when absent).
     */
    public static final String START_OFFSET = "offsetUs";

    /**
     * GET: the final JSON result; 409 until the run has finished; 401 without the token. A run
     * stopped early by a signal says so in the result's {@code stopped} ({@link Stopped}).
     */
    public static final String RESULT = "/result";

    /**
     * POST: the orchestrator has the result, the runner may exit; 409 before there is one; 401
     * without the token.
     */
    public static final String FINISH = "/finish";

    /**
     * POST {@code /step?number=N&rate=R&warmupMs=W&durationMs=D&at=EPOCH_MS&offsetUs=OFFSET}, to a
     * runner of a distributed capacity search ({@code --search-steps-from-control}): step {@code N}
     * (from 1, each the one after the last) runs this runner's share of the whole test's rate
     * {@code R} on its open connections, beginning at the instant {@code at} on the orchestrator's
     * clock (from which this runner's is {@code offsetUs} off), for a warm-up of {@code W} ms left
     * out of its figures and then {@code D} ms measured. 200 when taken (or taken before: the same
     * number again is no new step), 409 while another step is pending or running, for a number out
     * of order, or after the end; 400 for a parameter that is not a number or out of range; 404
     * from a runner that takes no steps; 401 without the control token. {@code POST /step?end=true}
     * ends the search after the step running, if any: the runner then publishes {@link #RESULT}.
     */
    public static final String STEP = "/step";

    /**
     * GET {@code /step-result?number=N}: step {@code N}'s own result once it has run, as {@link
     * #RESULT}'s JSON with a row every second and every histogram, so that the steps of several
     * runners merge exactly; 409 while it is pending or running, 404 for a step never taken (or
     * long forgotten); 401 without the control token.
     */
    public static final String STEP_RESULT = "/step-result";

    /** The query parameters of {@link #STEP} and {@link #STEP_RESULT}. */
    public static final String STEP_NUMBER = "number";

    public static final String STEP_RATE = "rate";
    public static final String STEP_WARMUP = "warmupMs";
    public static final String STEP_DURATION = "durationMs";
    public static final String STEP_AT = "at";
    public static final String STEP_OFFSET = "offsetUs";
    public static final String STEP_END = "end";

    /**
     * The secret that {@link #START}, {@link #STEP}, {@link #STEP_RESULT}, {@link #RESULT} and
     * {@link #FINISH} require, as {@code Authorization: Bearer TOKEN}. Without it the runner is on
     * a laptop: it binds loopback only, and the control paths are open to whoever can reach
     * loopback.
     */
    public static final String CONTROL_TOKEN_VARIABLE = "TCPLOAD_CONTROL_TOKEN";

    /** The authorization scheme of the control token. */
    public static final String BEARER = "Bearer ";

    /**
     * The runner binds its endpoint here when {@code --metrics-host} is absent (the pod's IP); only
     * with {@link #CONTROL_TOKEN_VARIABLE} set, else on loopback.
     */
    public static final String BIND_HOST_VARIABLE = "TCPLOAD_BIND_HOST";

    /** The runner's index when {@code --runner-index} is absent. */
    public static final String RUNNER_INDEX_VARIABLE = "TCPLOAD_RUNNER_INDEX";

    /** Kubernetes sets it in each pod of an Indexed Job. */
    public static final String JOB_COMPLETION_INDEX_VARIABLE = "JOB_COMPLETION_INDEX";

    /** Read in this order when {@code --runner-index} is absent. */
    public static final List<String> RUNNER_INDEX_VARIABLES =
            List.of(RUNNER_INDEX_VARIABLE, JOB_COMPLETION_INDEX_VARIABLE);

    /** The metric label {@code test} when {@code --metrics-label-test} is absent. */
    public static final String TEST_VARIABLE = "TCPLOAD_TEST";

    /** The metric label {@code namespace} when {@code --metrics-label-namespace} is absent. */
    public static final String NAMESPACE_VARIABLE = "TCPLOAD_NAMESPACE";

    /**
     * The pod's {@code terminationGracePeriodSeconds}, which a process cannot see otherwise: after
     * SIGTERM the runner serves its partial result until told to finish or until shortly before
     * this ends, when the kubelet would kill it.
     */
    public static final String GRACE_PERIOD_VARIABLE = "TCPLOAD_TERMINATION_GRACE_SECONDS";

    /** A runner pod's endpoint port, named {@code metrics} in the pod. */
    public static final int DEFAULT_PORT = 8080;

    private RunnerProtocol() {}

    /** The path and query that set the start instant {@code atEpochMs}. */
    public static String startAt(long atEpochMs) {
        return START + "?" + START_AT + "=" + atEpochMs;
    }

    /**
     * The path and query that set the start instant {@code atEpochMs}, for a runner whose clock is
     * {@code offsetUs} ahead of the orchestrator's.
     */
    public static String startAt(long atEpochMs, long offsetUs) {
        return startAt(atEpochMs) + "&" + START_OFFSET + "=" + offsetUs;
    }

    /**
     * The path and query of step {@code number}: {@code ratePerSecond} for the whole test, a
     * warm-up and a measured duration, beginning at {@code atEpochMs} on the orchestrator's clock
     * for a runner whose clock is {@code offsetUs} ahead of it.
     */
    public static String step(
            int number,
            double ratePerSecond,
            long warmupMs,
            long durationMs,
            long atEpochMs,
            long offsetUs) {
        return STEP
                + "?"
                + STEP_NUMBER
                + "="
                + number
                + "&"
                + STEP_RATE
                + "="
                + ratePerSecond
                + "&"
                + STEP_WARMUP
                + "="
                + warmupMs
                + "&"
                + STEP_DURATION
                + "="
                + durationMs
                + "&"
                + STEP_AT
                + "="
                + atEpochMs
                + "&"
                + STEP_OFFSET
                + "="
                + offsetUs;
    }

    /** The path and query that end a distributed search. */
    public static String stepEnd() {
        return STEP + "?" + STEP_END + "=true";
    }

    /** The path and query of step {@code number}'s result. */
    public static String stepResult(int number) {
        return STEP_RESULT + "?" + STEP_NUMBER + "=" + number;
    }
}
