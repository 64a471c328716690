package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A transaction mix's rows in the console report and the JSON result. */
class RequestTableTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static RunSummary withRows(RunSummary base) {
        return RunBuilder.from(base)
                .byRequest(
                        List.of(
                                new RequestStats(
                                        "authorise", 7, 7, 0, Summaries.histogram(500, 6, 1000, 1)),
                                new RequestStats("balance", 2, 1, 1, Summaries.histogram(1000, 2)),
                                new RequestStats(
                                        "reversal", 1, 0, 1, Summaries.histogram(2000, 1))))
                .build();
    }

    @Test
    void theTableFollowsTheReportWithARowPerRequest() {
        RunSummary summary = withRows(Summaries.everything());

        String report = ConsoleReport.render(summary, new ReportOptions(false, false, false));

        String table =
                String.join(
                        "\n",
                        "  By request",
                        "    Request    Requests   Success   Failure       p50       p90"
                                + "       p99     p99.9",
                        "    authorise         7         7         0  500.00us    1.00ms"
                                + "    1.00ms    1.00ms",
                        "    balance           2         1         1    1.00ms    1.00ms"
                                + "    1.00ms    1.00ms",
                        "    reversal          1         0         1    2.00ms    2.00ms"
                                + "    2.00ms    2.00ms",
                        "");
        assertThat(report).contains("Transfer/sec:").endsWith(table);
        String plain =
                ConsoleReport.render(
                        Summaries.everything(), new ReportOptions(false, false, false));
        assertThat(report).isEqualTo(plain + table);
    }

    @Test
    void aRunOfOneRequestPrintsNoTable() {
        assertThat(RequestTable.render(List.of())).isEmpty();
    }

    @Test
    void theRowsRoundTripThroughJsonAndAResultWithoutThemReadsAsNone() throws Exception {
        RunSummary summary = withRows(Summaries.everything());

        String json = JsonResult.write(summary);
        RunSummary read = JsonResult.read(json);

        assertThat(read.byRequest()).hasSize(3);
        for (int i = 0; i < 3; i++) {
            RequestStats written = summary.byRequest().get(i);
            RequestStats back = read.byRequest().get(i);
            assertThat(back.name()).isEqualTo(written.name());
            assertThat(back.requests()).isEqualTo(written.requests());
            assertThat(back.successes()).isEqualTo(written.successes());
            assertThat(back.failures()).isEqualTo(written.failures());
            assertThat(back.latencyUs()).isEqualTo(written.latencyUs());
        }
        assertThat(MAPPER.readTree(json).at("/byRequest/2/latencyUs/p99").asLong()).isEqualTo(2000);

        ObjectNode older = (ObjectNode) MAPPER.readTree(json);
        older.remove("byRequest");
        assertThat(JsonResult.read(older.toString()).byRequest()).isEmpty();
        assertThat(MAPPER.readTree(JsonResult.write(Summaries.everything())).has("byRequest"))
                .isFalse();
    }
}
