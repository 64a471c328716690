package io.tcpload.operator.results;

import io.tcpload.operator.crd.ErrorCounts;
import io.tcpload.operator.crd.LatencySummary;
import io.tcpload.operator.crd.RequestSummary;
import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Turns a (merged) run summary into the status {@code summary}: every figure of the runner's
 * report, latencies in milliseconds, and a transaction mix's rows by request name. Pure.
 */
public final class StatusSummaries {
    private static final double US_PER_MS = 1000.0;

    private StatusSummaries() {}

    public static ResultSummary from(RunSummary run) {
        Counts counts = run.counts();
        double seconds = run.runtimeUs() / 1_000_000.0;
        ResultSummary summary = new ResultSummary();
        summary.setRuntimeMs(run.runtimeUs() / 1000);
        summary.setRequests(counts.requests());
        summary.setSuccesses(counts.successes());
        summary.setFailures(counts.failures());
        summary.setErrors(errors(counts));
        summary.setNon2xx3xx(counts.non2xx3xx());
        summary.setBytesRead(counts.bytesRead());
        summary.setBytesWritten(counts.bytesWritten());
        summary.setTps(perSecond(counts.requests(), seconds));
        summary.setSuccessTps(perSecond(counts.successes(), seconds));
        summary.setFailureTps(perSecond(counts.failures(), seconds));
        // Socket errors are attempts that got no judged response; they count against success.
        long attempts = counts.requests() + counts.errors();
        double successRatio = attempts == 0 ? 0 : (double) counts.successes() / attempts;
        double errorRatio =
                attempts == 0 ? 0 : (double) (counts.failures() + counts.errors()) / attempts;
        summary.setSuccessRatio(successRatio);
        summary.setErrorRatio(errorRatio);
        summary.setSuccessPercent(Math.round(successRatio * 10_000) / 100.0);
        summary.setLatency(latency(run.latencyUs()));
        summary.setConnectP99Ms(percentileMs(run.connectUs(), 99));
        if (run.handshakeUs().getTotalCount() > 0) {
            summary.setTlsHandshakeP99Ms(percentileMs(run.handshakeUs(), 99));
        }
        if (!run.byRequest().isEmpty()) {
            List<RequestSummary> rows = new ArrayList<>();
            for (RequestStats named : run.byRequest()) {
                rows.add(request(named, seconds));
            }
            summary.setByRequest(rows);
        }
        return summary;
    }

    /**
     * One named request's row. Its ratios are of its own complete responses: a socket error (a
     * refused connect, a timeout) belongs to the connection, not to a request name.
     */
    private static RequestSummary request(RequestStats named, double seconds) {
        RequestSummary row = new RequestSummary();
        row.setName(named.name());
        row.setRequests(named.requests());
        row.setSuccesses(named.successes());
        row.setFailures(named.failures());
        row.setTps(perSecond(named.requests(), seconds));
        long requests = named.requests();
        row.setSuccessRatio(requests == 0 ? 0 : (double) named.successes() / requests);
        row.setErrorRatio(requests == 0 ? 0 : (double) named.failures() / requests);
        Histogram latency = named.latencyUs();
        row.setP50Ms(percentileMs(latency, 50));
        row.setP75Ms(percentileMs(latency, 75));
        row.setP90Ms(percentileMs(latency, 90));
        row.setP99Ms(percentileMs(latency, 99));
        row.setP999Ms(percentileMs(latency, 99.9));
        row.setP9999Ms(percentileMs(latency, 99.99));
        row.setMeanMs(latency.getTotalCount() == 0 ? 0 : latency.getMean() / US_PER_MS);
        row.setMaxMs(latency.getTotalCount() == 0 ? 0 : latency.getMaxValue() / US_PER_MS);
        return row;
    }

    private static ErrorCounts errors(Counts counts) {
        ErrorCounts errors = new ErrorCounts();
        errors.setConnect(counts.connectErrors());
        errors.setRead(counts.readErrors());
        errors.setWrite(counts.writeErrors());
        errors.setTimeout(counts.timeouts());
        errors.setTls(counts.tlsErrors());
        return errors;
    }

    /** As the runner's report: mean, sample standard deviation, max and the percentile lines. */
    static LatencySummary latency(Histogram histogram) {
        LatencySummary latency = new LatencySummary();
        long count = histogram.getTotalCount();
        latency.setMeanMs(count == 0 ? 0 : histogram.getMean() / US_PER_MS);
        // HdrHistogram's deviation divides by n; the runner's report (as wrk's) by n - 1.
        double stdevUs =
                count < 2 ? 0 : histogram.getStdDeviation() * Math.sqrt(count / (count - 1.0));
        latency.setStdevMs(stdevUs / US_PER_MS);
        latency.setMaxMs(count == 0 ? 0 : histogram.getMaxValue() / US_PER_MS);
        latency.setP50Ms(percentileMs(histogram, 50));
        latency.setP75Ms(percentileMs(histogram, 75));
        latency.setP90Ms(percentileMs(histogram, 90));
        latency.setP99Ms(percentileMs(histogram, 99));
        latency.setP999Ms(percentileMs(histogram, 99.9));
        latency.setP9999Ms(percentileMs(histogram, 99.99));
        return latency;
    }

    private static double percentileMs(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0
                ? 0
                : histogram.getValueAtPercentile(percentile) / US_PER_MS;
    }

    private static double perSecond(long amount, double seconds) {
        return seconds <= 0 ? 0 : amount / seconds;
    }
}
