package io.tcpload.runner.html;

import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.report.SearchReport;
import io.tcpload.runner.report.Units;
import io.tcpload.runner.search.CapacitySearch;
import io.tcpload.runner.search.SearchResult;
import io.tcpload.runner.search.SearchSpec;
import io.tcpload.runner.search.StepFigures;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import io.tcpload.runner.stats.SecondSample;
import io.tcpload.runner.stats.StageResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A run's report as one self-contained HTML file: parameters, summary table, in rate mode the
 * schedule kept and the per-stage table, TPS, latency and errors over time (marked in elapsed
 * minutes and hours), and the latency percentile spectrum, all drawn as inline SVG. It fetches
 * nothing and runs no script, so it opens the same offline, in a mail attachment or in CI
 * artifacts. Series longer than {@link #MAX_POINTS} seconds are drawn downsampled (mean line,
 * min-max band), so a ten-hour run stays a small file with its spikes visible.
 *
 * <p>Stateless and thread-safe; the summary is only read.
 */
public final class HtmlReport {
    /** Points drawn per time chart at most. */
    public static final int MAX_POINTS = 600;

    private static final String SUCCESS = "#2e7d32";
    private static final String FAILURE = "#c62828";
    private static final String[] LATENCY_COLORS = {"#1565c0", "#ef6c00", "#6a1b9a"};
    private static final String[] ERROR_COLORS = {
        "#c62828", "#ad1457", "#4527a0", "#ef6c00", "#00695c"
    };

    private HtmlReport() {}

    /** Writes {@link #render} to {@code file} in UTF-8. */
    public static void write(RunSummary summary, Path file) throws IOException {
        Files.writeString(file, render(summary), StandardCharsets.UTF_8);
    }

    /** The whole document. */
    public static String render(RunSummary summary) {
        return render(summary, Optional.empty());
    }

    /**
     * The whole document of a run that {@code stopped} early, if it did: a line at the top says so,
     * so that nobody reads the partial figures as a whole run's.
     */
    public static String render(RunSummary summary, Optional<Stopped> stopped) {
        return render(summary, stoppedNotice(stopped), "");
    }

    /** The line at the top of the report of a run stopped early; none for a whole run. */
    private static String stoppedNotice(Optional<Stopped> stopped) {
        return stopped.map(
                        s ->
                                "<p id=\"stopped\" class=\"stopped\">"
                                        + Html.escape(s.describe())
                                        + ": the result is partial</p>\n")
                .orElse("");
    }

    /**
     * A capacity search's report: the capacity line and how the search ended, the step table, the
     * knee (latency percentiles against each step's rate) and the steps over time, then the report
     * of the step the capacity rests on (the confirmation that held, else the last step). A search
     * that {@code stopped} early on a signal says so at the top, as a stopped run's report does.
     */
    public static String renderSearch(
            SearchResult result, SearchSpec spec, Optional<Stopped> stopped) {
        CapacitySearch.Outcome outcome = result.outcome();
        StringBuilder html = new StringBuilder(16 * 1024);
        html.append("<section id=\"search\">\n<h2>Capacity search</h2>\n<p id=\"capacity\">")
                .append(Html.escape(SearchReport.capacityLine(outcome, spec.slo())))
                .append("</p>\n<p>")
                .append(Html.escape(outcome.message()))
                .append("</p>\n<table id=\"search-parameters\">\n");
        row(html, "SLO", spec.slo().text());
        row(
                html,
                "range",
                SearchSpec.formatRate(spec.minRate())
                        + " to "
                        + SearchSpec.formatRate(spec.maxRate())
                        + " requests/sec");
        row(
                html,
                "step",
                Quantities.formatDurationMs(spec.stepMs())
                        + " measured after a warm-up of "
                        + Quantities.formatDurationMs(spec.warmupMs()));
        row(html, "precision", fixed(spec.precision() * 100) + "%");
        row(
                html,
                "steps",
                outcome.steps().size() + " in " + Units.time(result.wallTimeMs() * 1000.0));
        html.append("</table>\n<table id=\"steps\">\n<tr><th>step</th><th>kind</th>")
                .append("<th>target/s</th><th>achieved/s</th><th>p50</th><th>p90</th><th>p99</th>")
                .append("<th>p99.9</th><th>errors</th><th>backlog</th><th>verdict</th></tr>\n");
        for (CapacitySearch.Step step : outcome.steps()) {
            StepFigures f = step.figures();
            html.append("<tr>");
            cell(html, Integer.toString(step.order().number()));
            cell(html, step.order().kind().written());
            cell(html, SearchSpec.formatRate(step.order().rate()));
            cell(html, fixed(f.achievedRate()));
            cell(html, Units.time(f.figures().p50Ms() * 1000));
            cell(html, Units.time(f.figures().p90Ms() * 1000));
            cell(html, Units.time(f.figures().p99Ms() * 1000));
            cell(html, Units.time(f.figures().p999Ms() * 1000));
            cell(html, Long.toString(f.errors()));
            cell(html, f.backlogAtMid() + " to " + f.backlogAtEnd());
            cell(html, step.verdict().held() ? "held" : step.verdict().describe());
            html.append("</tr>\n");
        }
        html.append("</table>\n");
        if (!outcome.steps().isEmpty()) {
            html.append(kneeChart(outcome));
            html.append(stepsChart(result));
        }
        html.append("</section>\n");
        return render(result.headline(), stoppedNotice(stopped), html.toString());
    }

    /** Latency percentiles against each step's rate, in the order of the rates. */
    private static String kneeChart(CapacitySearch.Outcome outcome) {
        List<CapacitySearch.Step> steps = new ArrayList<>(outcome.steps());
        steps.sort(java.util.Comparator.comparingDouble(s -> s.order().rate()));
        double[] rates = new double[steps.size()];
        double[][] percentiles = new double[4][steps.size()];
        for (int i = 0; i < steps.size(); i++) {
            rates[i] = steps.get(i).order().rate();
            var figures = steps.get(i).figures().figures();
            percentiles[0][i] = figures.p50Ms() * 1000;
            percentiles[1][i] = figures.p90Ms() * 1000;
            percentiles[2][i] = figures.p99Ms() * 1000;
            percentiles[3][i] = figures.p999Ms() * 1000;
        }
        SvgChart chart =
                new SvgChart("knee", "Latency against rate (the knee)", "requests/sec", "latency")
                        .yLabel(Units::time);
        String[] names = {"p50", "p90", "p99", "p99.9"};
        String[] colors = {LATENCY_COLORS[0], LATENCY_COLORS[1], LATENCY_COLORS[2], FAILURE};
        for (int k = 0; k < names.length; k++) {
            chart.line(names[k], colors[k], rates, percentiles[k]);
        }
        return "<figure>\n" + chart.render() + "</figure>\n";
    }

    /** Each step's target and achieved rate over the search's time, one point per step's end. */
    private static String stepsChart(SearchResult result) {
        List<CapacitySearch.Step> steps = result.outcome().steps();
        double[] at = new double[steps.size()];
        double[] target = new double[steps.size()];
        double[] achieved = new double[steps.size()];
        long firstUs = result.stepResults().get(0).startEpochUs();
        for (int i = 0; i < steps.size(); i++) {
            RunSummary step = result.stepResults().get(i);
            at[i] = (step.startEpochUs() - firstUs + step.runtimeUs()) / 1e6;
            target[i] = steps.get(i).order().rate();
            achieved[i] = steps.get(i).figures().achievedRate();
        }
        SvgChart chart =
                timeChart("steps", "Steps over time", "requests/sec")
                        .yLabel(SvgChart::number)
                        .line("target", LATENCY_COLORS[0], at, target)
                        .line("achieved", SUCCESS, at, achieved);
        return "<figure>\n" + chart.render() + "</figure>\n";
    }

    private static String render(RunSummary summary, String notice, String search) {
        RunInfo info = summary.info();
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>tcpload report: ")
                .append(Html.escape(info.profileName()))
                .append("</title>\n<style>\n")
                .append(STYLE)
                .append("</style>\n</head>\n<body>\n<h1>tcpload report</h1>\n")
                .append(notice);
        if (!search.isEmpty()) {
            html.append(search).append("<h2>The step the capacity rests on</h2>\n");
        }
        parameters(html, info);
        summaryTable(html, summary);
        byRequest(html, summary.byRequest());
        if (summary.rate() != null) {
            rateSection(html, summary.rate());
        }
        List<SecondSample> seconds = summary.seconds();
        html.append("<section id=\"charts\">\n");
        html.append(tpsChart(seconds));
        html.append(latencyChart(seconds));
        html.append(spectrumChart(summary.latencyUs()));
        html.append(errorsChart(seconds));
        html.append("</section>\n");
        errorMessages(html, summary.errorMessages());
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void parameters(StringBuilder html, RunInfo info) {
        html.append("<h2>Parameters</h2>\n<table id=\"parameters\">\n");
        row(html, "target", info.target());
        row(html, "profile", info.profileName());
        row(html, "threads", Integer.toString(info.threads()));
        row(html, "connections", Integer.toString(info.connections()));
        row(html, "duration", Units.duration(info.durationMs()));
        row(html, "timeout", Units.duration(info.timeoutMs()));
        row(html, "keep-alive", info.keepAlive() ? "yes" : "no");
        row(html, "pipeline", Integer.toString(info.pipeline()));
        row(html, "transport", info.transport());
        html.append("</table>\n");
    }

    private static void summaryTable(StringBuilder html, RunSummary summary) {
        Counts counts = summary.counts();
        double seconds = summary.runtimeUs() / 1e6;
        html.append("<h2>Summary</h2>\n<table id=\"summary\">\n");
        row(html, "runtime", Units.time(summary.runtimeUs()));
        row(html, "requests", Long.toString(counts.requests()));
        row(html, "successes", Long.toString(counts.successes()));
        row(html, "failures", Long.toString(counts.failures()));
        row(html, "requests/sec", fixed(rate(counts.requests(), seconds)));
        row(html, "successes/sec", fixed(rate(counts.successes(), seconds)));
        row(html, "failures/sec", fixed(rate(counts.failures(), seconds)));
        row(
                html,
                "socket errors",
                "connect "
                        + counts.connectErrors()
                        + ", read "
                        + counts.readErrors()
                        + ", write "
                        + counts.writeErrors()
                        + ", timeout "
                        + counts.timeouts()
                        + (counts.tlsErrors() > 0 ? ", tls " + counts.tlsErrors() : ""));
        if (counts.retried() > 0) {
            row(html, "retried requests", Long.toString(counts.retried()));
        }
        if (counts.non2xx3xx() > 0) {
            row(html, "non-2xx or 3xx responses", Long.toString(counts.non2xx3xx()));
        }
        row(
                html,
                "bytes read",
                counts.bytesRead() + " (" + Units.binary(counts.bytesRead()) + "B)");
        row(
                html,
                "bytes written",
                counts.bytesWritten() + " (" + Units.binary(counts.bytesWritten()) + "B)");
        html.append("</table>\n<h3>Latency and connect time</h3>\n<table id=\"percentiles\">\n")
                .append("<tr><th></th><th>mean</th><th>p50</th><th>p90</th><th>p99</th>")
                .append("<th>p99.9</th><th>p99.99</th><th>max</th><th>count</th></tr>\n");
        if (summary.rate() != null) {
            // wrk2's two views: from the intended send time, and from the actual write.
            percentileRow(html, "latency (corrected)", summary.latencyUs());
            percentileRow(html, "latency (uncorrected)", summary.rate().uncorrectedUs());
        } else {
            percentileRow(html, "latency", summary.latencyUs());
        }
        percentileRow(html, "connect", summary.connectUs());
        if (summary.handshakeUs().getTotalCount() > 0) {
            percentileRow(html, "tls handshake", summary.handshakeUs());
        }
        html.append("</table>\n");
    }

    /**
     * Rate mode: what was asked for, how well the schedule was kept, and with stages the per-stage
     * table (the one the text report prints).
     */
    private static void rateSection(StringBuilder html, RateSummary rate) {
        html.append("<h2>Rate</h2>\n<table id=\"rate\">\n");
        row(
                html,
                "requested rate",
                rate.stages().isEmpty() ? rateText(rate.requestedRate()) + "/s" : "stages, below");
        row(html, "sends planned", Long.toString(rate.planned()));
        row(html, "sends written", Long.toString(rate.sent()));
        String late =
                rate.late()
                        + " ("
                        + fixed(rate.sent() > 0 ? 100.0 * rate.late() / rate.sent() : 0)
                        + "%)";
        row(html, "sends more than 1ms late", late);
        Histogram lag = rate.lagUs();
        if (lag.getTotalCount() > 0) {
            row(
                    html,
                    "send lag",
                    "p50 "
                            + Units.time(lag.getValueAtPercentile(50))
                            + ", p99 "
                            + Units.time(lag.getValueAtPercentile(99))
                            + ", max "
                            + Units.time(lag.getMaxValue()));
        }
        html.append("</table>\n");
        if (rate.stages().isEmpty()) {
            return;
        }
        html.append("<h3>Stages</h3>\n<table id=\"stages\">\n<tr>");
        for (String heading :
                new String[] {
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
                    "errors"
                }) {
            html.append("<th>").append(heading).append("</th>");
        }
        html.append("</tr>\n");
        for (StageResult stage : rate.stages()) {
            double seconds = stage.durationMs() / 1000.0;
            Histogram latency = stage.latencyUs();
            boolean empty = latency.getTotalCount() == 0;
            html.append("<tr>");
            cell(html, Integer.toString(stage.stage()));
            cell(html, Quantities.formatDurationMs(stage.durationMs()));
            cell(
                    html,
                    stage.fromRate() == stage.targetRate()
                            ? rateText(stage.targetRate())
                            : rateText(stage.fromRate())
                                    + " \u2192 "
                                    + rateText(stage.targetRate()));
            cell(html, fixed(stage.sent() / seconds));
            cell(html, fixed(stage.counts().successes() / seconds));
            cell(html, fixed(stage.counts().failures() / seconds));
            for (double percentile : new double[] {50, 90, 99, 99.9}) {
                cell(html, empty ? "-" : Units.time(latency.getValueAtPercentile(percentile)));
            }
            cell(html, Long.toString(stage.counts().errors()));
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    /** A transaction mix's rows: per named request its counts and percentiles. */
    private static void byRequest(StringBuilder html, List<RequestStats> rows) {
        if (rows.isEmpty()) {
            return;
        }
        html.append("<h2>By request</h2>\n<table id=\"by-request\">\n<tr>");
        for (String heading :
                new String[] {
                    "request", "requests", "successes", "failures", "p50", "p90", "p99", "p99.9"
                }) {
            html.append("<th>").append(heading).append("</th>");
        }
        html.append("</tr>\n");
        for (RequestStats row : rows) {
            Histogram latency = row.latencyUs();
            boolean empty = latency.getTotalCount() == 0;
            html.append("<tr><th>").append(Html.escape(row.name())).append("</th>");
            cell(html, Long.toString(row.requests()));
            cell(html, Long.toString(row.successes()));
            cell(html, Long.toString(row.failures()));
            for (double percentile : new double[] {50, 90, 99, 99.9}) {
                cell(html, empty ? "-" : Units.time(latency.getValueAtPercentile(percentile)));
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    /** A requested rate: whole numbers as such, others with two decimals. */
    private static String rateText(double perSecond) {
        return perSecond == Math.rint(perSecond) && perSecond < 1e15
                ? Long.toString((long) perSecond)
                : fixed(perSecond);
    }

    private static void percentileRow(StringBuilder html, String name, Histogram histogram) {
        html.append("<tr><th>").append(name).append("</th>");
        boolean empty = histogram.getTotalCount() == 0;
        cell(html, empty ? "-" : Units.time(histogram.getMean()));
        for (double percentile : new double[] {50, 90, 99, 99.9, 99.99}) {
            cell(html, empty ? "-" : Units.time(histogram.getValueAtPercentile(percentile)));
        }
        cell(html, empty ? "-" : Units.time(histogram.getMaxValue()));
        cell(html, Long.toString(histogram.getTotalCount()));
        html.append("</tr>\n");
    }

    private static String tpsChart(List<SecondSample> seconds) {
        SvgChart chart =
                timeChart("tps", "Responses per second", "responses/s")
                        .yLabel(SvgChart::number)
                        .wholeY();
        // Over each second's real length: a run's last second may be cut short.
        addTimeSeries(chart, seconds, "success", SUCCESS, s -> s.perSecond(s.counts().successes()));
        addTimeSeries(chart, seconds, "failure", FAILURE, s -> s.perSecond(s.counts().failures()));
        return figure(chart, seconds.size());
    }

    private static String latencyChart(List<SecondSample> seconds) {
        SvgChart chart = timeChart("latency", "Latency per second", "latency").yLabel(Units::time);
        addTimeSeries(chart, seconds, "p50", LATENCY_COLORS[0], SecondSample::latencyP50Us);
        addTimeSeries(chart, seconds, "p90", LATENCY_COLORS[1], SecondSample::latencyP90Us);
        addTimeSeries(chart, seconds, "p99", LATENCY_COLORS[2], SecondSample::latencyP99Us);
        return figure(chart, seconds.size());
    }

    private static String errorsChart(List<SecondSample> seconds) {
        SvgChart chart =
                timeChart("errors", "Socket errors per second", "errors/s")
                        .yLabel(SvgChart::number)
                        .wholeY();
        addErrorSeries(chart, seconds, "connect", ERROR_COLORS[0], Counts::connectErrors);
        addErrorSeries(chart, seconds, "read", ERROR_COLORS[1], Counts::readErrors);
        addErrorSeries(chart, seconds, "write", ERROR_COLORS[2], Counts::writeErrors);
        addErrorSeries(chart, seconds, "timeout", ERROR_COLORS[3], Counts::timeouts);
        if (seconds.stream().anyMatch(s -> s.counts().tlsErrors() > 0)) {
            addErrorSeries(chart, seconds, "tls", ERROR_COLORS[4], Counts::tlsErrors);
        }
        return figure(chart, seconds.size());
    }

    private static String figure(SvgChart chart, int points) {
        String note =
                points > MAX_POINTS
                        ? "<figcaption>"
                                + points
                                + " seconds drawn as "
                                + MAX_POINTS
                                + " buckets: line = mean, band = min to max</figcaption>\n"
                        : "";
        return "<figure>\n" + chart.render() + note + "</figure>\n";
    }

    /** A chart of per-second values over the run, its x axis marked in elapsed time. */
    private static SvgChart timeChart(String id, String title, String yTitle) {
        return new SvgChart(id, title, "time since start", yTitle)
                .timeX()
                .xLabel(HtmlReport::elapsed);
    }

    /** Elapsed seconds as hours, minutes and seconds, leaving out zero parts: 90 is 1m30s. */
    static String elapsed(double seconds) {
        long total = Math.round(seconds);
        if (total == 0) {
            return "0s";
        }
        StringBuilder text = new StringBuilder();
        if (total >= 3600) {
            text.append(total / 3600).append('h');
        }
        if (total % 3600 >= 60) {
            text.append(total % 3600 / 60).append('m');
        }
        if (total % 60 > 0) {
            text.append(total % 60).append('s');
        }
        return text.toString();
    }

    /** One kind of socket error per second, over each second's real length. */
    private static void addErrorSeries(
            SvgChart chart,
            List<SecondSample> seconds,
            String name,
            String color,
            ToLongFunction<Counts> kind) {
        addTimeSeries(chart, seconds, name, color, s -> s.perSecond(kind.applyAsLong(s.counts())));
    }

    /** Adds one per-second series, downsampled to {@link #MAX_POINTS} with a min-max band. */
    private static void addTimeSeries(
            SvgChart chart,
            List<SecondSample> seconds,
            String name,
            String color,
            ToDoubleFunction<SecondSample> value) {
        double[] values = new double[seconds.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value.applyAsDouble(seconds.get(i));
        }
        List<Downsample.Bucket> buckets = Downsample.of(values, MAX_POINTS);
        double[] x = new double[buckets.size()];
        double[] mean = new double[buckets.size()];
        double[] low = new double[buckets.size()];
        double[] high = new double[buckets.size()];
        boolean banded = false;
        for (int i = 0; i < buckets.size(); i++) {
            Downsample.Bucket bucket = buckets.get(i);
            // Seconds are 1-based; a bucket sits at the middle of the seconds it covers.
            x[i] = seconds.get(bucket.first()).second() + (bucket.last() - bucket.first()) / 2.0;
            mean[i] = bucket.mean();
            low[i] = bucket.min();
            high[i] = bucket.max();
            banded |= bucket.last() > bucket.first();
        }
        if (banded) {
            chart.band(name, color, x, mean, low, high);
        } else {
            chart.line(name, color, x, mean);
        }
    }

    /**
     * Latency against percentile on HdrHistogram's log scale: x is {@code 1 / (1 - q)}, so 90%,
     * 99%, 99.9% ... are evenly spaced and the tail is as wide as the body.
     */
    private static String spectrumChart(Histogram latencyUs) {
        List<double[]> points = new ArrayList<>();
        if (latencyUs.getTotalCount() > 0) {
            for (HistogramIterationValue value : latencyUs.percentiles(5)) {
                double percentile = value.getPercentileLevelIteratedTo();
                if (percentile >= 100.0) {
                    break;
                }
                points.add(new double[] {1 / (1 - percentile / 100.0), value.getValueIteratedTo()});
            }
            // The maximum, placed one decade past the last point, as HdrHistogram's plots do.
            double lastX = points.isEmpty() ? 1 : points.get(points.size() - 1)[0];
            points.add(new double[] {lastX * 10, latencyUs.getMaxValue()});
        }
        double[] x = new double[points.size()];
        double[] y = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            x[i] = points.get(i)[0];
            y[i] = points.get(i)[1];
        }
        SvgChart chart =
                new SvgChart(
                                "spectrum",
                                "Latency by percentile (whole run)",
                                "percentile",
                                "latency")
                        .yLabel(Units::time)
                        .xLabel(HtmlReport::percentileLabel)
                        .logX(1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000)
                        .line("latency", LATENCY_COLORS[0], x, y);
        return "<figure>\n" + chart.render() + "</figure>\n";
    }

    /** The percentile whose {@code 1 / (1 - q)} is {@code x}: 1 is 0%, 10 is 90%, 100 is 99%. */
    static String percentileLabel(double x) {
        double percentile = 100 * (1 - 1 / x);
        String text = String.format(Locale.ROOT, "%.5f", percentile);
        text = text.replaceAll("0+$", "").replaceAll("\\.$", "");
        return text + "%";
    }

    private static void errorMessages(StringBuilder html, List<ErrorCount> errors) {
        if (errors.isEmpty()) {
            return;
        }
        html.append("<h2>Errors</h2>\n<table id=\"error-messages\">\n");
        for (ErrorCount error : errors) {
            row(html, error.message(), Long.toString(error.count()));
        }
        html.append("</table>\n");
    }

    private static void row(StringBuilder html, String name, String value) {
        html.append("<tr><th>")
                .append(Html.escape(name))
                .append("</th><td>")
                .append(Html.escape(value))
                .append("</td></tr>\n");
    }

    private static void cell(StringBuilder html, String value) {
        html.append("<td>").append(Html.escape(value)).append("</td>");
    }

    private static double rate(long amount, double seconds) {
        return seconds > 0 ? amount / seconds : 0;
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static final String STYLE =
            """
            body { font-family: sans-serif; margin: 2em auto; max-width: 1000px; color: #222; }
            table { border-collapse: collapse; margin-bottom: 1em; }
            th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; }
            td { font-variant-numeric: tabular-nums; }
            figure { margin: 1.5em 0; }
            figcaption { font-size: 12px; color: #555; }
            svg.chart { width: 100%; height: auto; background: #fff; }
            svg .grid { stroke: #e0e0e0; stroke-width: 1; }
            svg .tick, svg .legend text { font-size: 11px; fill: #444; }
            svg .axis { font-size: 12px; fill: #444; }
            svg .title { font-size: 14px; font-weight: bold; fill: #222; }
            p.stopped { font-weight: bold; color: #c62828; }
            """;
}
