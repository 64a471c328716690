package io.tcpload.runner.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.report.Units;
import io.tcpload.runner.stats.SecondSample;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report of a ten-minute staged rate-mode run, opened in real headless Chromium. The run is
 * {@link TenMinuteRun}: its summary comes out of the same statistics and collector code a real run
 * uses. What the browser drew is read back from its own layout: a measuring script, added to a copy
 * of the report only, lists for every chart the points Chromium parsed, their bounding boxes and
 * the axis ticks; the figures drawn are then turned back into values through the ticks and compared
 * with what the run counted. A screenshot of the unchanged report is left in {@code target/} for
 * people to look at. Skipped where Chromium is not installed.
 */
class TenMinuteReportChromiumIT {
    private static final Path SCREENSHOT =
            Path.of("target", "html-report", "ten-minute-report.png");

    /** Reads what Chromium laid out into a {@code <pre id="measured">}, as JSON. */
    private static final String MEASURE =
            """
            <pre id="measured"></pre>
            <script>
            const out = [];
            for (const svg of document.querySelectorAll('svg.chart')) {
              const box = svg.getBoundingClientRect();
              const chart = {id: svg.id, width: box.width, height: box.height,
                             xTicks: [], yTicks: [], series: [],
                             bands: svg.querySelectorAll('polygon.band').length};
              for (const text of svg.querySelectorAll('text.tick')) {
                const grid = text.previousElementSibling;
                if (text.getAttribute('text-anchor') === 'middle') {
                  chart.xTicks.push({label: text.textContent, at: grid.x1.baseVal.value});
                } else {
                  chart.yTicks.push({label: text.textContent, at: grid.y1.baseVal.value});
                }
              }
              for (const line of svg.querySelectorAll('polyline.series')) {
                const b = line.getBBox();
                const xs = [], ys = [];
                for (let i = 0; i < line.points.numberOfItems; i++) {
                  xs.push(line.points.getItem(i).x);
                  ys.push(line.points.getItem(i).y);
                }
                chart.series.push({name: line.dataset.name, xs: xs, ys: ys,
                                   box: {x: b.x, y: b.y, width: b.width, height: b.height},
                                   length: line.getTotalLength()});
              }
              out.push(chart);
            }
            document.getElementById('measured').textContent = JSON.stringify(out);
            </script>
            """;

    private static final Pattern MEASURED =
            Pattern.compile("<pre id=\"measured\">(.*?)</pre>", Pattern.DOTALL);

    private static TenMinuteRun run;
    private static String dom;
    private static JsonNode charts;

    @BeforeAll
    static void render(@TempDir Path dir) throws Exception {
        assumeTrue(
                Chromium.installed(),
                "Chromium is not installed at " + Chromium.BINARY + " (apt-get install chromium)");
        run = new TenMinuteRun();
        Path report = dir.resolve("report.html");
        HtmlReport.write(run.summary, report);
        String html = Files.readString(report, StandardCharsets.UTF_8);
        Path measured = dir.resolve("measured.html");
        Files.writeString(
                measured, html.replace("</body>", MEASURE + "</body>"), StandardCharsets.UTF_8);
        Chromium chromium = new Chromium(dir);

        dom = chromium.dumpDom(measured);
        Matcher matcher = MEASURED.matcher(dom);
        assertThat(matcher.find()).as("the measuring script ran").isTrue();
        String json =
                matcher.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
        charts = new ObjectMapper().readTree(json);

        chromium.screenshot(report, SCREENSHOT, 1100, 3300);
        System.out.println("Ten-minute HTML report screenshot: " + SCREENSHOT.toAbsolutePath());
    }

    @Test
    void everyChartIsLaidOutWithItsSeriesDrawn() {
        assertThat(ids(charts)).containsExactly("tps", "latency", "spectrum", "errors");
        for (JsonNode chart : charts) {
            assertThat(chart.get("width").asDouble())
                    .as(chart.get("id").asText())
                    .isGreaterThan(500);
            assertThat(chart.get("height").asDouble())
                    .as(chart.get("id").asText())
                    .isGreaterThan(150);
        }
        assertThat(names(chart("tps"))).containsExactly("success", "failure");
        assertThat(names(chart("latency"))).containsExactly("p50", "p90", "p99");
        assertThat(names(chart("spectrum"))).containsExactly("latency");
        assertThat(names(chart("errors"))).containsExactly("connect", "read", "write", "timeout");
        // Lines that carry data are drawn across the plot, with height: not empty, not flat.
        for (String[] drawn :
                new String[][] {
                    {"tps", "success"}, {"tps", "failure"}, {"latency", "p50"},
                    {"latency", "p90"}, {"latency", "p99"}, {"spectrum", "latency"},
                    {"errors", "connect"}, {"errors", "read"}, {"errors", "timeout"}
                }) {
            JsonNode box = series(drawn[0], drawn[1]).get("box");
            assertThat(box.get("width").asDouble())
                    .as("%s %s", drawn[0], drawn[1])
                    .isGreaterThan(800);
            assertThat(box.get("height").asDouble())
                    .as("%s %s", drawn[0], drawn[1])
                    .isGreaterThan(2);
        }
        // No write errors happened: that line lies flat on zero.
        assertThat(series("errors", "write").get("box").get("height").asDouble()).isZero();
    }

    @Test
    void theTimeAxisSpansTheTenMinutesInMinuteTicks() {
        for (String id : new String[] {"tps", "latency", "errors"}) {
            JsonNode chart = chart(id);
            assertThat(labels(chart.get("xTicks")))
                    .as(id)
                    .containsExactly("2m", "4m", "6m", "8m", "10m");
            for (JsonNode line : chart.get("series")) {
                double[] xs = doubles(line.get("xs"));
                assertThat(secondAt(chart, xs[0]))
                        .as("%s first point", id)
                        .isCloseTo(1, within(0.05));
                assertThat(secondAt(chart, xs[xs.length - 1]))
                        .as("%s last point", id)
                        .isCloseTo(600, within(0.05));
            }
        }
    }

    @Test
    void eachTimeSeriesDrawsOnePointPerDownsampledBucket() {
        int expected =
                Downsample.of(new double[TenMinuteRun.SECONDS], HtmlReport.MAX_POINTS).size();
        // The design draws up to MAX_POINTS points: ten minutes of seconds are all drawn.
        assertThat(expected).isEqualTo(Math.min(TenMinuteRun.SECONDS, HtmlReport.MAX_POINTS));
        assertThat(run.summary.seconds()).hasSize(TenMinuteRun.SECONDS);
        for (String id : new String[] {"tps", "latency", "errors"}) {
            for (JsonNode line : chart(id).get("series")) {
                assertThat(line.get("xs")).as("%s %s", id, line.get("name")).hasSize(expected);
            }
            assertThat(chart(id).get("bands").asInt()).as(id).isZero();
        }
        assertThat(dom).doesNotContain("drawn as");
        // The spectrum follows the histogram's percentile steps out to the maximum.
        assertThat(series("spectrum", "latency").get("xs").size()).isGreaterThan(40);
        assertThat(labels(chart("spectrum").get("xTicks")))
                .contains("90%", "99%", "99.9%", "99.99%");
    }

    @Test
    void theDrawnValuesAreTheRunsSecondBySecond() {
        assertThat(drawnValues("tps", "success"))
                .containsExactly(asDoubles(run.successesPerSecond), within(0.5));
        assertThat(drawnValues("tps", "failure"))
                .containsExactly(asDoubles(run.failuresPerSecond), within(0.5));
        double[] drawnErrors = new double[TenMinuteRun.SECONDS];
        for (String kind : new String[] {"connect", "read", "write", "timeout"}) {
            double[] values = drawnValues("errors", kind);
            for (int i = 0; i < values.length; i++) {
                drawnErrors[i] += values[i];
            }
        }
        assertThat(drawnErrors).containsExactly(asDoubles(run.errorsPerSecond), within(0.5));
        List<SecondSample> seconds = run.summary.seconds();
        for (String[] percentile : new String[][] {{"p50", "50"}, {"p90", "90"}, {"p99", "99"}}) {
            ToLongFunction<SecondSample> value =
                    switch (percentile[0]) {
                        case "p50" -> SecondSample::latencyP50Us;
                        case "p90" -> SecondSample::latencyP90Us;
                        default -> SecondSample::latencyP99Us;
                    };
            double[] expected = seconds.stream().mapToDouble(s -> value.applyAsLong(s)).toArray();
            double tolerance = resolution(chart("latency"));
            assertThat(drawnValues("latency", percentile[0]))
                    .as(percentile[0])
                    .containsExactly(expected, within(tolerance));
        }
        // The stall at 5:00 stands out in the drawn p99: over 300 ms, where the rest is far below.
        double[] p99 = drawnValues("latency", "p99");
        assertThat(p99[300]).isGreaterThan(300_000);
        assertThat(p99[200]).isLessThan(100_000);
    }

    @Test
    void theSummaryNumbersAreTheRuns() {
        double seconds = TenMinuteRun.RUNTIME_US / 1e6;
        assertThat(dom)
                .contains(row("runtime", Units.time(TenMinuteRun.RUNTIME_US)))
                .contains(row("requests", Long.toString(run.requests)))
                .contains(row("successes", Long.toString(run.successes)))
                .contains(row("failures", Long.toString(run.failures)))
                .contains(row("requests/sec", fixed(run.requests / seconds)))
                .contains(row("successes/sec", fixed(run.successes / seconds)))
                .contains(
                        row(
                                "socket errors",
                                "connect "
                                        + run.connectErrors
                                        + ", read "
                                        + run.readErrors
                                        + ", write 0, timeout "
                                        + run.timeouts))
                .contains("<tr><th>bytes read</th><td>" + run.bytesRead + " (")
                .contains("<tr><th>bytes written</th><td>" + run.bytesWritten + " (")
                .contains(
                        row(
                                "sends written",
                                Long.toString(run.bytesWritten / TenMinuteRun.REQUEST_BYTES)))
                .contains(row("sends planned", Long.toString(TenMinuteRun.SCHEDULE.totalSends())));
        assertThat(run.requests).isGreaterThan(400_000);
        assertThat(run.connectErrors).isPositive();
        assertThat(run.readErrors).isPositive();
        assertThat(run.timeouts).isPositive();
        assertThat(run.late).isPositive();
        assertThat(dom).contains("<tr><th>sends more than 1ms late</th><td>" + run.late + " (");

        Histogram latency = run.latencyUs;
        StringBuilder cells = new StringBuilder("<tr><th>latency (corrected)</th>");
        cells.append("<td>").append(Units.time(latency.getMean())).append("</td>");
        for (double percentile : new double[] {50, 90, 99, 99.9, 99.99}) {
            cells.append("<td>")
                    .append(Units.time(latency.getValueAtPercentile(percentile)))
                    .append("</td>");
        }
        cells.append("<td>").append(Units.time(latency.getMaxValue())).append("</td>");
        cells.append("<td>").append(latency.getTotalCount()).append("</td></tr>");
        assertThat(dom).contains(cells);
        assertThat(latency.getTotalCount()).isEqualTo(run.requests);
    }

    @Test
    void theStageTableHasOneRowPerStageWithWhatWasSent() {
        Matcher table =
                Pattern.compile("<table id=\"stages\">(.*?)</table>", Pattern.DOTALL).matcher(dom);
        assertThat(table.find()).as("stage table").isTrue();
        List<List<String>> rows = new ArrayList<>();
        Matcher row = Pattern.compile("<tr>(.*?)</tr>", Pattern.DOTALL).matcher(table.group(1));
        while (row.find()) {
            List<String> cells = new ArrayList<>();
            Matcher cell = Pattern.compile("<t[dh]>(.*?)</t[dh]>").matcher(row.group(1));
            while (cell.find()) {
                cells.add(cell.group(1));
            }
            rows.add(cells);
        }
        assertThat(rows.get(0))
                .containsExactly(
                        "stage",
                        "duration",
                        "target/s",
                        "achieved/s",
                        "successes/s",
                        "failures/s",
                        "p50",
                        "p90",
                        "p99",
                        "p99.9",
                        "errors");
        assertThat(rows).hasSize(4);
        long[] durations = {60, 480, 60};
        String[] targets = {"0 \u2192 800", "800", "800 \u2192 200"};
        long allErrors = run.connectErrors + run.readErrors + run.timeouts;
        for (int i = 0; i < 3; i++) {
            List<String> cells = rows.get(i + 1);
            assertThat(cells.get(0)).isEqualTo(Integer.toString(i + 1));
            assertThat(cells.get(1)).isEqualTo(Units.duration(durations[i] * 1000));
            assertThat(cells.get(2)).isEqualTo(targets[i]);
            assertThat(cells.get(3)).isEqualTo(fixed(run.sentPerStage[i] / (double) durations[i]));
            // Every error happened in the hold stage.
            assertThat(cells.get(10)).isEqualTo(Long.toString(i == 1 ? allErrors : 0));
        }
        assertThat(run.sentPerStage[0] + run.sentPerStage[1] + run.sentPerStage[2])
                .isEqualTo(TenMinuteRun.SCHEDULE.totalSends());
    }

    // --- reading what Chromium measured ---

    private static JsonNode chart(String id) {
        for (JsonNode chart : charts) {
            if (chart.get("id").asText().equals(id)) {
                return chart;
            }
        }
        throw new AssertionError("no chart " + id);
    }

    private static JsonNode series(String chartId, String name) {
        for (JsonNode line : chart(chartId).get("series")) {
            if (line.get("name").asText().equals(name)) {
                return line;
            }
        }
        throw new AssertionError("no series " + name + " in " + chartId);
    }

    private static List<String> ids(JsonNode list) {
        List<String> ids = new ArrayList<>();
        list.forEach(chart -> ids.add(chart.get("id").asText()));
        return ids;
    }

    private static List<String> names(JsonNode chart) {
        List<String> names = new ArrayList<>();
        chart.get("series").forEach(line -> names.add(line.get("name").asText()));
        return names;
    }

    private static List<String> labels(JsonNode ticks) {
        List<String> labels = new ArrayList<>();
        ticks.forEach(tick -> labels.add(tick.get("label").asText()));
        return labels;
    }

    /** The second at drawn x, from the first and last time ticks (2m and 10m). */
    private static double secondAt(JsonNode chart, double x) {
        JsonNode ticks = chart.get("xTicks");
        double x0 = ticks.get(0).get("at").asDouble();
        double x1 = ticks.get(ticks.size() - 1).get("at").asDouble();
        return 120 + (x - x0) * (600 - 120) / (x1 - x0);
    }

    /**
     * The values a series was drawn at, read back through the chart's first (zero) and last y
     * ticks: the top tick's value is the one its label names, except for latency, whose labels are
     * rounded, so there it is taken from the report's scale rule instead.
     */
    private static double[] drawnValues(String chartId, String name) {
        JsonNode chart = chart(chartId);
        JsonNode ticks = chart.get("yTicks");
        double y0 = ticks.get(0).get("at").asDouble();
        double yTop = ticks.get(ticks.size() - 1).get("at").asDouble();
        assertThat(ticks.get(0).get("label").asText()).isIn("0", "0us", "0.00us");
        double top = topValue(chartId);
        double[] ys = doubles(series(chartId, name).get("ys"));
        double[] values = new double[ys.length];
        for (int i = 0; i < ys.length; i++) {
            values[i] = (ys[i] - y0) / (yTop - y0) * top;
        }
        return values;
    }

    /** The value at a chart's top tick: the nice ceiling of the largest value drawn in it. */
    private static double topValue(String chartId) {
        double max = 0;
        for (SecondSample s : run.summary.seconds()) {
            max =
                    Math.max(
                            max,
                            switch (chartId) {
                                case "tps" ->
                                        Math.max(s.counts().successes(), s.counts().failures());
                                case "latency" -> s.latencyP99Us();
                                default ->
                                        Math.max(
                                                Math.max(
                                                        s.counts().connectErrors(),
                                                        s.counts().readErrors()),
                                                Math.max(
                                                        s.counts().writeErrors(),
                                                        s.counts().timeouts()));
                            });
        }
        double top =
                chartId.equals("latency") ? SvgChart.niceCeiling(max) : SvgChart.wholeCeiling(max);
        if (!chartId.equals("latency")) {
            JsonNode ticks = chart(chartId).get("yTicks");
            assertThat(ticks.get(ticks.size() - 1).get("label").asText())
                    .isEqualTo(SvgChart.number(top));
        }
        return top;
    }

    /** How far a drawn value may be off: coordinates are written to a tenth of a unit. */
    private static double resolution(JsonNode chart) {
        JsonNode ticks = chart.get("yTicks");
        double span =
                ticks.get(0).get("at").asDouble()
                        - ticks.get(ticks.size() - 1).get("at").asDouble();
        return topValue(chart.get("id").asText()) / span * 0.1;
    }

    private static double[] doubles(JsonNode array) {
        double[] values = new double[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asDouble();
        }
        return values;
    }

    private static double[] asDoubles(long[] values) {
        double[] result = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            result[i] = values[i];
        }
        return result;
    }

    private static String row(String name, String value) {
        return "<tr><th>" + name + "</th><td>" + value + "</td></tr>";
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
