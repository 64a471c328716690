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
    public static final int VERSION = 2;

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
     * The secret that {@link #START}, {@link #RESULT} and {@link #FINISH} require, as {@code
     * Authorization: Bearer TOKEN}. Without it the runner is on a laptop: it binds loopback only,
     * and the control paths are open to whoever can reach loopback.
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
}
