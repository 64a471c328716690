package io.tcpload.operator;

import io.tcpload.operator.children.ControlKey;
import io.tcpload.runner.Version;
import io.tcpload.runner.contract.RunnerProtocol;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The operator's configuration, from its environment. Immutable.
 *
 * @param watchNamespaces namespaces whose tests it runs; empty means all
 * @param runnerImage the runner image of pods whose spec names none
 * @param runnerPort the runner pods' control port
 * @param leaderElection whether to take the Lease before reconciling (several replicas)
 * @param leaseNamespace where the Lease lives
 * @param httpPort the port of /healthz, /readyz and /metrics (0 picks a free one)
 * @param controlKey the key the runners' control tokens are derived under
 * @param controlKeyShared whether the key came from {@link #CONTROL_KEY_FILE_VARIABLE} (shared by
 *     every replica and restart), not made up at random by this process
 */
public record OperatorSettings(
        Set<String> watchNamespaces,
        String runnerImage,
        int runnerPort,
        boolean leaderElection,
        String leaseNamespace,
        int httpPort,
        ControlKey controlKey,
        boolean controlKeyShared) {
    public static final String LEASE_NAME = "tcpload-operator";

    /** The file holding the control key (the chart mounts its Secret there). */
    public static final String CONTROL_KEY_FILE_VARIABLE = "TCPLOAD_CONTROL_KEY_FILE";

    /**
     * The runner image built with this operator (the {@code images} profile's name and tag, by
     * default the project version); the chart always sets {@code TCPLOAD_RUNNER_IMAGE}.
     */
    public static final String DEFAULT_RUNNER_IMAGE = Version.RUNNER_IMAGE;

    public OperatorSettings {
        watchNamespaces = Set.copyOf(watchNamespaces);
    }

    /** Settings with a random control key of this process's own. */
    public OperatorSettings(
            Set<String> watchNamespaces,
            String runnerImage,
            int runnerPort,
            boolean leaderElection,
            String leaseNamespace,
            int httpPort) {
        this(
                watchNamespaces,
                runnerImage,
                runnerPort,
                leaderElection,
                leaseNamespace,
                httpPort,
                ControlKey.random(),
                false);
    }

    /**
     * {@code TCPLOAD_WATCH_NAMESPACES} (comma-separated, empty for all), {@code
     * TCPLOAD_RUNNER_IMAGE}, {@code TCPLOAD_RUNNER_PORT} (8080), {@code TCPLOAD_LEADER_ELECTION}
     * ({@code true}/{@code false}), {@code TCPLOAD_LEASE_NAMESPACE}, {@code TCPLOAD_HTTP_PORT}
     * (8080), {@code TCPLOAD_CONTROL_KEY_FILE} (without it, a random key of this process's own).
     *
     * @throws IllegalArgumentException naming the variable whose value is wrong
     */
    public static OperatorSettings fromEnvironment(Function<String, String> environment) {
        String namespaces = value(environment, "TCPLOAD_WATCH_NAMESPACES", "");
        Set<String> watch =
                Arrays.stream(namespaces.split(","))
                        .map(String::strip)
                        .filter(name -> !name.isEmpty())
                        .collect(Collectors.toSet());
        boolean leaderElection =
                Boolean.parseBoolean(value(environment, "TCPLOAD_LEADER_ELECTION", "false"));
        String leaseNamespace = value(environment, "TCPLOAD_LEASE_NAMESPACE", "");
        if (leaderElection && leaseNamespace.isEmpty()) {
            throw new IllegalArgumentException(
                    "TCPLOAD_LEASE_NAMESPACE must name the Lease's namespace when"
                            + " TCPLOAD_LEADER_ELECTION is true");
        }
        String keyFile = value(environment, CONTROL_KEY_FILE_VARIABLE, "");
        ControlKey key;
        try {
            key = keyFile.isEmpty() ? ControlKey.random() : ControlKey.fromFile(Path.of(keyFile));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    CONTROL_KEY_FILE_VARIABLE + ": " + e.getMessage(), e);
        }
        return new OperatorSettings(
                watch,
                value(environment, "TCPLOAD_RUNNER_IMAGE", DEFAULT_RUNNER_IMAGE),
                port(environment, "TCPLOAD_RUNNER_PORT", RunnerProtocol.DEFAULT_PORT),
                leaderElection,
                leaseNamespace,
                port(environment, "TCPLOAD_HTTP_PORT", 8080),
                key,
                !keyFile.isEmpty());
    }

    private static String value(
            Function<String, String> environment, String name, String fallback) {
        String value = environment.apply(name);
        return value == null || value.isBlank() ? fallback : value.strip();
    }

    private static int port(Function<String, String> environment, String name, int fallback) {
        String text = value(environment, name, Integer.toString(fallback));
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                name + " must be a port from 0 to 65535, not '" + text + "'");
    }
}
