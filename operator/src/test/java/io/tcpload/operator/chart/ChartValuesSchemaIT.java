package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.LintResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** values.schema.json describes every value, and Helm refuses values that break it. */
class ChartValuesSchemaIT {
    @TempDir Path workDir;

    @Test
    void aWrongTypeIsASchemaErrorNamingTheValue() {
        assertThatThrownBy(() -> HelmChart.template(HelmChart.values("replicas", "two")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("schema")
                .hasMessageContaining("/replicas");
    }

    @Test
    void lintReportsTheSchemaErrorToo() {
        LintResult result = HelmChart.lint(HelmChart.values("replicas", "two"), workDir);

        assertThat(result.isFailed()).isTrue();
        assertThat(String.join("\n", result.getMessages())).contains("replicas");
    }

    @Test
    void aMistypedKeyIsRefused() {
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values("metrics.podMonitor.enable", true)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("enable");
    }

    @Test
    void aNamespaceThatIsNotAKubernetesNameIsRefused() {
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values("watchNamespaces", List.of("Team_A"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("watchNamespaces");
        assertThatThrownBy(() -> HelmChart.template(HelmChart.values("watchNamespaces", "team-a")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("watchNamespaces");
    }

    @Test
    void aMonitorIntervalMustBeADuration() {
        assertThatThrownBy(
                        () ->
                                HelmChart.template(
                                        HelmChart.values("metrics.podMonitor.interval", "5")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("interval");
    }

    @Test
    void isDraft07() {
        assertThat(schema()).containsEntry("$schema", "http://json-schema.org/draft-07/schema#");
    }

    /** Every value of values.yaml is declared by the schema, down to the leaves it constrains. */
    @Test
    @SuppressWarnings("unchecked")
    void declaresEveryDefaultValue() {
        Map<String, Object> schema = schema();
        List<String> undeclared = new ArrayList<>();
        collectUndeclared("", HelmChart.defaultValues(), schema, schema, undeclared);
        assertThat(undeclared).isEmpty();
    }

    @SuppressWarnings("unchecked")
    private static void collectUndeclared(
            String path,
            Map<String, Object> values,
            Map<String, Object> node,
            Map<String, Object> root,
            List<String> undeclared) {
        Map<String, Object> resolved = resolve(node, root);
        Map<String, Object> properties = (Map<String, Object>) resolved.get("properties");
        if (properties == null) {
            // A free-form object (labels, affinity, security contexts): declared as a whole.
            assertThat(resolved.get("type")).as(path).isEqualTo("object");
            return;
        }
        values.forEach(
                (key, value) -> {
                    Map<String, Object> property = (Map<String, Object>) properties.get(key);
                    if (property == null) {
                        undeclared.add(path + "." + key);
                    } else if (value instanceof Map<?, ?> map && !map.isEmpty()) {
                        collectUndeclared(
                                path + "." + key,
                                (Map<String, Object>) map,
                                property,
                                root,
                                undeclared);
                    }
                });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> resolve(Map<String, Object> node, Map<String, Object> root) {
        Object ref = node.get("$ref");
        if (ref == null) {
            return node;
        }
        Map<String, Object> target = root;
        for (String part : ((String) ref).substring(2).split("/")) {
            target = (Map<String, Object>) target.get(part);
        }
        return target;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schema() {
        return HelmChart.SERIALIZATION.unmarshal(
                HelmChart.read(HelmChart.DIR.resolve("values.schema.json")), Map.class);
    }
}
