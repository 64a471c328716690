package io.tcpload.operator.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.crd.ThresholdSyntax;
import io.tcpload.runner.slo.Threshold;
import io.tcpload.runner.slo.Threshold.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The CRD's pattern for a threshold accepts exactly what the operator's parser accepts, in the API
 * server's regular expressions (RE2) and in Java's, over every combination of metric, selector,
 * operator, number, unit and blanks below.
 */
class ThresholdSyntaxTest {
    private static final Pattern JAVA = Pattern.compile(ThresholdSyntax.PATTERN);
    private static final com.google.re2j.Pattern RE2 =
            com.google.re2j.Pattern.compile(ThresholdSyntax.PATTERN);

    @Test
    void thePatternAndTheParserAcceptTheSameThresholds() {
        List<String> metrics = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            metrics.add(metric.written());
            metrics.add(metric.written().toUpperCase(Locale.ROOT));
        }
        metrics.addAll(List.of("p95", "p9", "p99.", "p99.999", "tps2", "", "ratio"));
        List<String> selectors =
                List.of(
                        "",
                        "{request=transfer}",
                        "{request=a.b-c_d9}",
                        "{request=}",
                        "{ request=x}",
                        "{req=x}",
                        "{request=x y}",
                        " {request=x}");
        List<String> operators = List.of("<", "<=", ">", ">=", "==", "=<", "");
        List<String> numbers =
                List.of("0", "1", "1.0", "0.99", "00.5", "0001", "1.5", "250", "1.", ".5", "1.01");
        List<String> units = List.of("", "ms", "us", "s", " ms", "min", "MS");
        List<String> blanks = List.of("", " ", "\t", "  ");
        int checked = 0;
        int accepted = 0;
        int i = 0;
        for (String metric : metrics) {
            for (String selector : selectors) {
                for (String operator : operators) {
                    for (String number : numbers) {
                        for (String unit : units) {
                            String blank = blanks.get(i++ % blanks.size());
                            String text =
                                    blank + metric + selector + blank + operator + blank + number
                                            + unit + blank;
                            boolean parses = parses(text);
                            assertThat(JAVA.matcher(text).matches())
                                    .as("Java's pattern on '%s'", text)
                                    .isEqualTo(parses);
                            assertThat(RE2.matcher(text).matches())
                                    .as("RE2's pattern on '%s'", text)
                                    .isEqualTo(parses);
                            checked++;
                            accepted += parses ? 1 : 0;
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(10_000);
        assertThat(accepted).as("thresholds accepted").isGreaterThan(1_000);
    }

    @Test
    void aPerRequestThresholdCarriesItsRequest() {
        Threshold threshold = Threshold.parse("p99{request=transfer} < 200ms");
        assertThat(threshold.request()).contains("transfer");
        assertThat(threshold.metric()).isEqualTo(Metric.P99);
        assertThat(threshold.limit()).isEqualTo(200);
        assertThat(Threshold.parse("p99 < 200ms").request()).isEqualTo(Optional.empty());
    }

    private static boolean parses(String text) {
        try {
            Threshold.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
