package io.tcpload.operator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.tcpload.operator.children.AllowList;
import io.tcpload.operator.children.ControlKey;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.RunnerPodCheck;
import io.tcpload.runner.Version;
import io.tcpload.runner.contract.RunnerProtocol;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The operator's configuration, from its environment. Immutable (the runner defaults are copied in
 * and out).
 *
 * @param watchNamespaces namespaces whose tests it runs; empty means all
 * @param runnerImage the runner image of pods whose spec names none
 * @param runnerPort the runner pods' control port
 * @param leaderElection whether to take the Lease before reconciling (several replicas)
 * @param leaseNamespace where the Lease lives
 * @param httpPort the port of /healthz, /readyz and /metrics (0 picks a free one)
 * @param runnerDefaults what runner pods get where their test's {@code spec.runner} says nothing
 *     (the chart's {@code runnerDefaults}); no image, which is {@code runnerImage}
 * @param allowedRunnerImages the images a test may name for its runner and init containers
 * @param allowedRunnerServiceAccounts the service accounts a test may name
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
        RunnerPodSettings runnerDefaults,
        AllowList allowedRunnerImages,
        AllowList allowedRunnerServiceAccounts,
        ControlKey controlKey,
        boolean controlKeyShared) {
    public static final String LEASE_NAME = "tcpload-operator";

    /** The runner pods' defaults, as JSON of {@code spec.runner}'s fields. */
    public static final String RUNNER_DEFAULTS_VARIABLE = "TCPLOAD_RUNNER_DEFAULTS";

    /** The file holding the control key (the chart mounts its Secret there). */
    public static final String CONTROL_KEY_FILE_VARIABLE = "TCPLOAD_CONTROL_KEY_FILE";

    /**
     * The runner image built with this operator (the {@code images} profile's name and tag, by
     * default the project version); the chart always sets {@code TCPLOAD_RUNNER_IMAGE}.
     */
    public static final String DEFAULT_RUNNER_IMAGE = Version.RUNNER_IMAGE;

    private static final ObjectMapper STRICT_JSON =
            JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    public OperatorSettings {
        watchNamespaces = Set.copyOf(watchNamespaces);
        runnerDefaults = RunnerPolicy.copyOf(runnerDefaults);
    }

    /** Settings without runner defaults or allow-lists, with a random control key of their own. */
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
                new RunnerPodSettings(),
                AllowList.any(RunnerPolicy.IMAGES_VARIABLE),
                AllowList.any(RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE),
                ControlKey.random(),
                false);
    }

    /** A copy of the runner defaults. */
    @Override
    public RunnerPodSettings runnerDefaults() {
        return RunnerPolicy.copyOf(runnerDefaults);
    }

    /** The image, defaults and allow-lists of the runner pods, as the reconciler applies them. */
    public RunnerPolicy runnerPolicy() {
        return new RunnerPolicy(
                runnerImage, runnerDefaults, allowedRunnerImages, allowedRunnerServiceAccounts);
    }

    /**
     * {@code TCPLOAD_WATCH_NAMESPACES} (comma-separated, empty for all), {@code
     * TCPLOAD_RUNNER_IMAGE}, {@code TCPLOAD_RUNNER_PORT} (8080), {@code TCPLOAD_LEADER_ELECTION}
     * ({@code true}/{@code false}), {@code TCPLOAD_LEASE_NAMESPACE}, {@code TCPLOAD_HTTP_PORT}
     * (8080), {@code TCPLOAD_RUNNER_DEFAULTS} (JSON, empty for none), {@code
     * TCPLOAD_ALLOWED_RUNNER_IMAGES} and {@code TCPLOAD_ALLOWED_RUNNER_SERVICE_ACCOUNTS}
     * (comma-separated, empty allows any), {@code TCPLOAD_CONTROL_KEY_FILE} (without it, a random
     * key of this process's own).
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
                runnerDefaults(value(environment, RUNNER_DEFAULTS_VARIABLE, "")),
                AllowList.parse(
                        environment.apply(RunnerPolicy.IMAGES_VARIABLE),
                        RunnerPolicy.IMAGES_VARIABLE),
                AllowList.parse(
                        environment.apply(RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE),
                        RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE),
                key,
                !keyFile.isEmpty());
    }

    /**
     * The runner defaults: a JSON object of {@code spec.runner}'s fields, each unknown one refused,
     * checked as a test's {@code spec.runner} is, less the image, which is {@code
     * TCPLOAD_RUNNER_IMAGE}.
     */
    static RunnerPodSettings runnerDefaults(String json) {
        String name = RUNNER_DEFAULTS_VARIABLE;
        // No defaults, or the chart's empty object: nothing to bind or check.
        if (json.isEmpty() || json.replaceAll("\\s", "").equals("{}")) {
            return new RunnerPodSettings();
        }
        JsonNode tree;
        try {
            tree = STRICT_JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    name
                            + " is not JSON (line "
                            + e.getLocation().getLineNr()
                            + ", column "
                            + e.getLocation().getColumnNr()
                            + "): "
                            + e.getOriginalMessage());
        }
        RunnerPodSettings defaults;
        try {
            defaults = STRICT_JSON.treeToValue(tree, RunnerPodSettings.class);
        } catch (UnrecognizedPropertyException e) {
            throw new IllegalArgumentException(
                    name
                            + ": unknown field '"
                            + path(e)
                            + "'; the fields are spec.runner's: "
                            + e.getKnownPropertyIds().stream()
                                    .map(String::valueOf)
                                    .sorted()
                                    .collect(Collectors.joining(", ")));
        } catch (JsonProcessingException e) {
            String at =
                    e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()
                            ? "." + path(mapping)
                            : "";
            throw new IllegalArgumentException(
                    name
                            + at
                            + ": "
                            + e.getOriginalMessage()
                            + " (it must be a JSON object of spec.runner's fields: the chart's"
                            + " runnerDefaults)");
        }
        if (defaults == null) {
            return new RunnerPodSettings();
        }
        if (defaults.getImage() != null) {
            throw new IllegalArgumentException(
                    name + ".image: give the runner image in TCPLOAD_RUNNER_IMAGE instead");
        }
        Optional<Failure> failure = RunnerPodCheck.settings(name, defaults);
        if (failure.isPresent()) {
            throw new IllegalArgumentException(failure.get().toString());
        }
        return defaults;
    }

    /** {@code nodeSelector.pool} or {@code tolerations[0].key}: where in the JSON it went wrong. */
    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
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
