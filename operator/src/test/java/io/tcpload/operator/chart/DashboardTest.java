package io.tcpload.operator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tcpload.operator.chart.GrafanaDashboard.Query;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard: structure Grafana 10+ imports, and PromQL that filters and aggregates. */
class DashboardTest {
    private static final GrafanaDashboard DASHBOARD = GrafanaDashboard.load();

    /** The runner's series; every query on them must honour the namespace and test filters. */
    private static final List<String> RUNNER_METRICS =
            List.of(
                    "tcpload_requests_total",
                    "tcpload_errors_total",
                    "tcpload_latency_seconds_bucket",
                    "tcpload_connect_seconds_bucket",
                    "tcpload_bytes_read_total",
                    "tcpload_bytes_written_total",
                    "tcpload_connections_open",
                    "tcpload_target_rate",
                    "tcpload_behind_schedule_total");

    private static final Pattern RUNNER_SERIES =
            Pattern.compile("\\b(" + String.join("|", RUNNER_METRICS) + ")\\{([^}]*)}");

    @Test
    void isAGrafanaTenDashboardWithAStableUid() {
        JsonNode root = DASHBOARD.root();
        assertThat(root.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
        assertThat(root.path("uid").asText()).isEqualTo("tcpload");
        assertThat(root.path("title").asText()).isNotBlank();
        assertThat(root.has("id"))
                .as("an id is per Grafana instance; imports must not carry one")
                .isFalse();
    }

    @Test
    void hasDataSourceNamespaceAndTestVariables() {
        Map<String, JsonNode> variables = new java.util.LinkedHashMap<>();
        DASHBOARD
                .root()
                .path("templating")
                .path("list")
                .forEach(v -> variables.put(v.path("name").asText(), v));

        assertThat(variables).containsOnlyKeys("datasource", "namespace", "test");
        assertThat(variables.get("datasource").path("type").asText()).isEqualTo("datasource");
        assertThat(variables.get("datasource").path("query").asText()).isEqualTo("prometheus");
        assertThat(variables.get("namespace").path("definition").asText())
                .isEqualTo("label_values(tcpload_requests_total, namespace)");
        assertThat(variables.get("test").path("definition").asText())
                .isEqualTo("label_values(tcpload_requests_total{namespace=~\"$namespace\"}, test)");
        for (String name : List.of("namespace", "test")) {
            JsonNode variable = variables.get(name);
            assertThat(variable.path("type").asText()).isEqualTo("query");
            assertThat(variable.path("datasource").path("uid").asText()).isEqualTo("${datasource}");
            assertThat(variable.path("multi").asBoolean()).isTrue();
            assertThat(variable.path("includeAll").asBoolean()).isTrue();
            assertThat(variable.path("allValue").asText()).isEqualTo(".*");
        }
    }

    @Test
    void everyPanelUsesTheDataSourceVariableAndHasAUniqueIdAndPlace() {
        Set<Integer> ids = new HashSet<>();
        List<int[]> boxes = new ArrayList<>();
        for (JsonNode panel : DASHBOARD.panels()) {
            String title = panel.path("title").asText();
            assertThat(ids.add(panel.path("id").asInt())).as("unique id of %s", title).isTrue();
            JsonNode grid = panel.path("gridPos");
            int x = grid.path("x").asInt(), y = grid.path("y").asInt();
            int w = grid.path("w").asInt(), h = grid.path("h").asInt();
            assertThat(w).as(title).isPositive();
            assertThat(h).as(title).isPositive();
            assertThat(x + w).as("%s fits the 24 columns", title).isLessThanOrEqualTo(24);
            for (int[] other : boxes) {
                boolean overlaps =
                        x < other[0] + other[2]
                                && other[0] < x + w
                                && y < other[1] + other[3]
                                && other[1] < y + h;
                assertThat(overlaps).as("%s overlaps another panel", title).isFalse();
            }
            boxes.add(new int[] {x, y, w, h});
            if (!panel.path("type").asText().equals("row")) {
                assertThat(panel.path("datasource").path("uid").asText())
                        .as(title)
                        .isEqualTo("${datasource}");
                assertThat(panel.path("targets")).as(title).isNotEmpty();
                Set<String> refIds = new HashSet<>();
                panel.path("targets")
                        .forEach(
                                t ->
                                        assertThat(refIds.add(t.path("refId").asText()))
                                                .as(title)
                                                .isTrue());
            }
        }
    }

    @Test
    void hasThePanelsOfTheIssue() {
        List<String> titles =
                DASHBOARD.panels().stream().map(p -> p.path("title").asText()).toList();
        assertThat(titles)
                .contains(
                        "TPS",
                        "Latency",
                        "Errors by kind",
                        "Open connections",
                        "Target vs achieved rate",
                        "Bytes",
                        "TPS per runner",
                        "Operator up",
                        "Reconciliations");
        assertThat(exprsOf("TPS"))
                .anyMatch(e -> e.contains("result=\"success\""))
                .anyMatch(e -> e.contains("result=\"failure\""));
        assertThat(exprsOf("Errors by kind")).allMatch(e -> e.contains("sum by (kind)"));
        assertThat(exprsOf("TPS per runner"))
                .allMatch(e -> e.matches(".*by \\([^)]*\\brunner\\b.*"));
        assertThat(exprsOf("Operator up")).containsExactly("up{job=~\".*tcpload-operator.*\"}");
    }

    /** Percentiles come from the runners' buckets added together, never from averaged quantiles. */
    @Test
    void latencyPercentilesAggregateTheBucketsAcrossRunners() {
        List<String> latency = exprsOf("Latency");
        Pattern quantile =
                Pattern.compile(
                        "histogram_quantile\\(([0-9.]+), sum by \\(([^)]*)\\) \\(rate\\(tcpload_latency_seconds_bucket\\{.*\\}\\[\\$__rate_interval]\\)\\)\\)");
        List<String> quantiles = new ArrayList<>();
        for (String expr : latency) {
            Matcher m = quantile.matcher(expr);
            assertThat(m.matches()).as(expr).isTrue();
            quantiles.add(m.group(1));
            assertThat(List.of(m.group(2).split(",\\s*")))
                    .contains("le")
                    .doesNotContain("runner", "pod");
        }
        assertThat(quantiles).containsExactly("0.5", "0.9", "0.99", "0.999");
    }

    @Test
    void everyRunnerQueryFiltersByNamespaceAndTest() {
        Set<String> used = new HashSet<>();
        for (Query query : DASHBOARD.queries()) {
            Matcher series = RUNNER_SERIES.matcher(query.expr());
            while (series.find()) {
                used.add(series.group(1));
                assertThat(series.group(2))
                        .as("%s %s", query.panelTitle(), query.refId())
                        .contains("namespace=~\"$namespace\"")
                        .contains("test=~\"$test\"");
            }
            assertThat(query.expr())
                    .as(
                            "%s %s names a runner metric only with a selector",
                            query.panelTitle(), query.refId())
                    .doesNotContainPattern(
                            "\\b(" + String.join("|", RUNNER_METRICS) + ")\\b(?!\\{)");
        }
        assertThat(used).containsExactlyInAnyOrderElementsOf(RUNNER_METRICS);
    }

    @Test
    void substitutedExpressionsAreCompleteAndBalanced() {
        List<String> expressions =
                DASHBOARD.expressions(GrafanaDashboard.variables("bank.prod", "balance-inquiry"));

        assertThat(expressions).hasSameSizeAs(DASHBOARD.queries()).isNotEmpty();
        for (String expr : expressions) {
            assertThat(expr).doesNotContain("$").doesNotContain("[[");
            assertThat(balanced(expr)).as(expr).isTrue();
        }
        assertThat(expressions)
                .anyMatch(
                        e -> e.contains("namespace=~\"bank\\\\.prod\", test=~\"balance-inquiry\""));
        assertThat(expressions).anyMatch(e -> e.contains("[1m]"));
    }

    @Test
    void aVariableWithoutAValueIsNamed() {
        assertThatThrownBy(() -> DASHBOARD.expressions(Map.of("namespace", "x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("uses $");
    }

    private static List<String> exprsOf(String title) {
        return DASHBOARD.queries().stream()
                .filter(q -> q.panelTitle().equals(title))
                .map(Query::expr)
                .toList();
    }

    /** Brackets nest properly outside string literals. */
    private static boolean balanced(String expr) {
        StringBuilder open = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if ("([{".indexOf(c) >= 0) {
                open.append(c);
            } else if (")]}".indexOf(c) >= 0) {
                if (open.isEmpty()
                        || "([{".indexOf(open.charAt(open.length() - 1)) != ")]}".indexOf(c)) {
                    return false;
                }
                open.setLength(open.length() - 1);
            }
        }
        return open.isEmpty() && !inString;
    }
}
