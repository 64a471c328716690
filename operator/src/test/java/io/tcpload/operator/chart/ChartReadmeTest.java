package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The chart's README documents every value a user can set. */
class ChartReadmeTest {
    /** Documented as a whole: their fields are Kubernetes' own. */
    private static final Set<String> WHOLE =
            Set.of("resources", "podSecurityContext", "securityContext");

    @Test
    @SuppressWarnings("unchecked")
    void everyValueIsInTheReadme() {
        String readme = HelmChart.read(HelmChart.DIR.resolve("README.md"));
        List<String> paths = new ArrayList<>();
        for (Map.Entry<String, Object> top : HelmChart.defaultValues().entrySet()) {
            if (top.getValue() instanceof Map<?, ?> children
                    && !children.isEmpty()
                    && !WHOLE.contains(top.getKey())) {
                ((Map<String, Object>) children)
                        .keySet()
                        .forEach(child -> paths.add(top.getKey() + "." + child));
            } else {
                paths.add(top.getKey());
            }
        }

        assertThat(paths).isNotEmpty().allSatisfy(path -> assertThat(readme).contains("`" + path));
    }
}
