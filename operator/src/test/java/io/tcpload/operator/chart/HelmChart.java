package io.tcpload.operator.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The chart {@code helm/tcpload-operator}, rendered and linted by real Helm (the native library of
 * helm-java) and parsed with fabric8. Stateless; safe from any test thread.
 */
final class HelmChart {
    static final Path DIR = Path.of("../helm/tcpload-operator");
    static final String RELEASE = "load";
    static final String NAMESPACE = "tcpload-system";

    /**
     * Helm's built-in default (1.20) is below the chart's kubeVersion; render for a current one.
     */
    static final String KUBE_VERSION = "1.30.0";

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private static final Map<Scenario, List<KubernetesResource>> RENDERED =
            new ConcurrentHashMap<>();

    private HelmChart() {}

    /**
     * Values from dotted paths and their values, e.g. {@code values("metrics.podMonitor.enabled",
     * true)}.
     */
    static Map<String, Object> values(Object... pathsAndValues) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < pathsAndValues.length; i += 2) {
            String[] path = ((String) pathsAndValues[i]).split("\\.");
            Map<String, Object> node = values;
            for (int j = 0; j < path.length - 1; j++) {
                node = child(node, path[j]);
            }
            node.put(path[path.length - 1], pathsAndValues[i + 1]);
        }
        return values;
    }

    /**
     * The YAML {@code helm template} prints for these values (on top of the chart's defaults).
     *
     * @throws IllegalStateException with Helm's message when rendering fails (schema errors too)
     */
    static String template(Map<String, Object> values) {
        Path file = writeTemp(values);
        try {
            return new Helm(DIR)
                    .template()
                    .withName(RELEASE)
                    .withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION)
                    .withValuesFile(file)
                    .call();
        } finally {
            delete(file);
        }
    }

    /** Every object of {@link #template}, each deserialized by fabric8 from its own document. */
    static List<KubernetesResource> render(Map<String, Object> values) {
        List<KubernetesResource> objects = new ArrayList<>();
        for (String document : documents(template(values))) {
            objects.add(SERIALIZATION.unmarshal(document));
        }
        return objects;
    }

    /** The objects of a scenario, rendered once per test run; callers must not modify them. */
    static List<KubernetesResource> render(Scenario scenario) {
        return RENDERED.computeIfAbsent(scenario, s -> List.copyOf(render(s.values)));
    }

    /** The rendered objects of one type. */
    static <T extends HasMetadata> List<T> ofType(List<KubernetesResource> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * {@code helm lint --strict} on a copy of the chart whose values.yaml is the chart's with these
     * values merged in (Helm's lint takes no values of its own through this API).
     */
    static LintResult lint(Map<String, Object> values, Path workDir) {
        Path copy = workDir.resolve(DIR.getFileName());
        copyTree(DIR, copy);
        Map<String, Object> merged = defaultValues();
        deepMerge(merged, values);
        write(copy.resolve("values.yaml"), SERIALIZATION.asYaml(merged));
        return new Helm(copy).lint().strict().call();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> defaultValues() {
        return SERIALIZATION.unmarshal(read(DIR.resolve("values.yaml")), Map.class);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> chartMetadata() {
        return SERIALIZATION.unmarshal(read(DIR.resolve("Chart.yaml")), Map.class);
    }

    /** The YAML documents of a multi-document stream, without the empty ones. */
    static List<String> documents(String yaml) {
        List<String> documents = new ArrayList<>();
        for (String document : yaml.split("(?m)^---\\s*$")) {
            boolean onlyComments =
                    document.lines()
                            .map(String::strip)
                            .allMatch(line -> line.isEmpty() || line.startsWith("#"));
            if (!onlyComments) {
                documents.add(document);
            }
        }
        return documents;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void deepMerge(Map<String, Object> into, Map<String, Object> from) {
        from.forEach(
                (key, value) -> {
                    if (value instanceof Map<?, ?> map && into.get(key) instanceof Map<?, ?>) {
                        deepMerge(child(into, key), (Map<String, Object>) map);
                    } else {
                        into.put(key, value);
                    }
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Map<String, Object> node, String key) {
        return (Map<String, Object>) node.computeIfAbsent(key, k -> new LinkedHashMap<>());
    }

    private static Path writeTemp(Map<String, Object> values) {
        try {
            Path file = Files.createTempFile("values-", ".yaml");
            write(file, SERIALIZATION.asYaml(values));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
