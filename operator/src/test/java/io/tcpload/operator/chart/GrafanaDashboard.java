package io.tcpload.operator.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Grafana dashboard shipped with the chart, read as JSON: its panels and their PromQL, with the
 * dashboard's variables substituted so that the queries can be run against a real Prometheus.
 * Immutable.
 *
 * <pre>{@code
 * List<String> queries = GrafanaDashboard.load().expressions(
 *         GrafanaDashboard.variables("load", "balance-inquiry"));
 * }</pre>
 */
final class GrafanaDashboard {
    static final Path FILE = HelmChart.DIR.resolve("dashboards/tcpload.json");

    /**
     * Grafana's own interval variables, at values fit for a Prometheus scraping every 5 to 15 s.
     */
    static final Map<String, String> GRAFANA_BUILT_INS =
            Map.of("__rate_interval", "1m", "__interval", "15s", "__range", "5m");

    /** {@code $name}, {@code ${name}}, {@code ${name:format}} or {@code [[name]]}. */
    private static final Pattern VARIABLE =
            Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\$(\\w+)|\\[\\[(\\w+)]]");

    /** One query of a panel. */
    record Query(String panelTitle, String refId, String expr) {}

    private final JsonNode root;

    private GrafanaDashboard(JsonNode root) {
        this.root = root;
    }

    static GrafanaDashboard load() {
        return load(FILE);
    }

    static GrafanaDashboard load(Path file) {
        try {
            return new GrafanaDashboard(new ObjectMapper().readTree(file.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode root() {
        return root;
    }

    /** Every panel, rows and the panels inside collapsed rows included, in order. */
    List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : root.path("panels")) {
            panels.add(panel);
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    /** Every query of every panel, as written (variables unsubstituted). */
    List<Query> queries() {
        List<Query> queries = new ArrayList<>();
        for (JsonNode panel : panels()) {
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    queries.add(
                            new Query(
                                    panel.path("title").asText(),
                                    target.path("refId").asText(),
                                    target.path("expr").asText()));
                }
            }
        }
        return queries;
    }

    /**
     * Every query's PromQL with the variables replaced by {@code values}.
     *
     * @throws IllegalArgumentException naming the query when it uses a variable without a value
     */
    List<String> expressions(Map<String, String> values) {
        List<String> expressions = new ArrayList<>();
        for (Query query : queries()) {
            expressions.add(substitute(query, values));
        }
        return expressions;
    }

    /**
     * The values that select one test in one namespace, plus Grafana's built-in intervals. The
     * dashboard's filters are regular expressions ({@code =~}) inside PromQL strings, so the names
     * are escaped for both, as Grafana does for a single selected value.
     */
    static Map<String, String> variables(String namespace, String test) {
        Map<String, String> values = new LinkedHashMap<>(GRAFANA_BUILT_INS);
        values.put("namespace", regexInPromqlString(namespace));
        values.put("test", regexInPromqlString(test));
        return values;
    }

    /**
     * {@code a.b} becomes {@code a\\.b}: the PromQL string {@code "a\\.b"} is the regex {@code
     * a\.b}.
     */
    static String regexInPromqlString(String literal) {
        StringBuilder out = new StringBuilder();
        for (char c : literal.toCharArray()) {
            if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                out.append("\\\\");
            }
            out.append(c);
        }
        return out.toString();
    }

    private static String substitute(Query query, Map<String, String> values) {
        Matcher matcher = VARIABLE.matcher(query.expr());
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String name =
                    matcher.group(1) != null
                            ? matcher.group(1)
                            : matcher.group(2) != null ? matcher.group(2) : matcher.group(3);
            String value = values.get(name);
            if (value == null) {
                throw new IllegalArgumentException(
                        "panel '%s' query %s uses $%s, which has no value"
                                .formatted(query.panelTitle(), query.refId(), name));
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}
