package io.tcpload.runner.metrics;

import io.tcpload.runner.contract.RunnerProtocol;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The labels put on every tcpload series, so that the series of many runner pods and tests can be
 * told apart and summed: {@code test}, {@code namespace} and {@code runner}. A null or blank value
 * leaves its label out. Immutable.
 *
 * @param test the load test's name
 * @param namespace the Kubernetes namespace of the test
 * @param runner the runner's index in a distributed run
 */
public record MetricLabels(String test, String namespace, String runner) {
    public static final MetricLabels NONE = new MetricLabels(null, null, null);

    public MetricLabels {
        test = blankToNull(test);
        namespace = blankToNull(namespace);
        runner = blankToNull(runner);
    }

    /**
     * Each label from its flag when given, else from its environment variable ({@link
     * RunnerProtocol#TEST_VARIABLE}, {@link RunnerProtocol#NAMESPACE_VARIABLE}, {@link
     * RunnerProtocol#RUNNER_INDEX_VARIABLE}); the runner label falls back to {@code runnerIndex}.
     *
     * @param environment the environment, e.g. {@code System::getenv}
     */
    public static MetricLabels resolve(
            String testFlag,
            String namespaceFlag,
            String runnerFlag,
            int runnerIndex,
            Function<String, String> environment) {
        String runner =
                firstNonBlank(runnerFlag, environment.apply(RunnerProtocol.RUNNER_INDEX_VARIABLE));
        return new MetricLabels(
                firstNonBlank(testFlag, environment.apply(RunnerProtocol.TEST_VARIABLE)),
                firstNonBlank(namespaceFlag, environment.apply(RunnerProtocol.NAMESPACE_VARIABLE)),
                runner != null ? runner : Integer.toString(runnerIndex));
    }

    /** The labels that are set, as name-value pairs in a fixed order. */
    public Map<String, String> asMap() {
        LinkedHashMap<String, String> map = new LinkedHashMap<>();
        if (test != null) {
            map.put("test", test);
        }
        if (namespace != null) {
            map.put("namespace", namespace);
        }
        if (runner != null) {
            map.put("runner", runner);
        }
        return map;
    }

    /** The labels that are set, as alternating names and values. */
    List<String> pairs() {
        List<String> pairs = new ArrayList<>();
        asMap().forEach(
                        (name, value) -> {
                            pairs.add(name);
                            pairs.add(value);
                        });
        return pairs;
    }

    private static String firstNonBlank(String first, String second) {
        String chosen = blankToNull(first);
        return chosen != null ? chosen : blankToNull(second);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
