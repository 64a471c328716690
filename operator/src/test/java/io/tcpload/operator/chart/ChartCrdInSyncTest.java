package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The chart installs the CRDs from its own {@code crds/} folder, which must hold the same files as
 * the repository's {@code crds/} (themselves checked against the Java types by {@code
 * CrdInSyncTest}).
 */
class ChartCrdInSyncTest {
    private static final Path REPOSITORY_CRDS = Path.of("../crds");
    private static final Path CHART_CRDS = HelmChart.DIR.resolve("crds");

    @Test
    void theChartHoldsACopyOfEveryCrd() throws IOException {
        assertThat(names(CHART_CRDS)).isEqualTo(names(REPOSITORY_CRDS)).isNotEmpty();
        for (String name : names(REPOSITORY_CRDS)) {
            assertThat(Files.readString(CHART_CRDS.resolve(name)))
                    .as(
                            "helm/tcpload-operator/crds/%s differs from crds/%s; refresh both"
                                    + " with:%n  ./mvnw -B -Pcrd process-classes",
                            name, name)
                    .isEqualTo(Files.readString(REPOSITORY_CRDS.resolve(name)));
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".yml") || n.endsWith(".yaml"))
                    .sorted()
                    .toList();
        }
    }
}
