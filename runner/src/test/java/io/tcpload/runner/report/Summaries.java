package io.tcpload.runner.report;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.CountsBuilder;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Run summaries built from fixed numbers, for the report tests. */
final class Summaries {
    private Summaries() {}

    static final RunInfo TINY_INFO =
            new RunInfo("127.0.0.1:18101", "01_tiny.ini", 1, 1, 1_000, 5_000, false, 1, "epoll");

    /** An auto-resizing histogram holding {@code value} {@code times} times, for each pair. */
    static Histogram histogram(long... valueTimesPairs) {
        Histogram histogram = new Histogram(3);
        for (int i = 0; i < valueTimesPairs.length; i += 2) {
            histogram.recordValueWithCount(valueTimesPairs[i], valueTimesPairs[i + 1]);
        }
        return histogram;
    }

    static Counts counts(
            long requests,
            long successes,
            long failures,
            long connectErrors,
            long readErrors,
            long writeErrors,
            long timeouts,
            long bytesRead,
            long non2xx3xx) {
        return new Counts(
                requests,
                successes,
                failures,
                connectErrors,
                readErrors,
                writeErrors,
                timeouts,
                bytesRead,
                requests * 22,
                non2xx3xx);
    }

    /**
     * Two seconds with every optional line present. All values are below 2048, where a 3-digit
     * histogram is exact, so the golden text can be checked by hand:
     *
     * <ul>
     *   <li>latency 500 us x6, 1000 us x3, 2000 us x1: mean 800, sample stdev sqrt(2.1e6/9) =
     *       483.05, 9 of 10 within [316.95, 1283.05]; p50 500, p75 and p90 1000, p99 up 2000
     *   <li>req/sec 900, 1000, 1100, 1400: mean 1100, stdev sqrt(140000/3) = 216.02, 3 of 4 within
     *   <li>connect 100, 150, 200 us: mean 150, stdev 50, all within
     *   <li>10 requests, 14254 bytes in 2 s: 5.00/s (4.00 success, 1.00 failure), 6.96KB/s
     * </ul>
     */
    static RunSummary everything() {
        Counts first = counts(6, 5, 1, 1, 0, 1, 0, 8_000, 1);
        Counts second = counts(4, 3, 1, 0, 0, 2, 0, 6_254, 1);
        return RunBuilder.aRun()
                .info(
                        new RunInfo(
                                "10.1.2.3:9000",
                                "payments.ini",
                                2,
                                4,
                                2_000,
                                5_000,
                                true,
                                1,
                                "nio"))
                .runtimeUs(2_000_000)
                .counts(first.plus(second))
                .latencyUs(histogram(500, 6, 1000, 3, 2000, 1))
                .connectUs(histogram(100, 1, 150, 1, 200, 1))
                .requestRate(histogram(900, 1, 1000, 1, 1100, 1, 1400, 1))
                .seconds(
                        List.of(
                                new SecondSample(1, first, 500, 1000, 1000, 1000),
                                new SecondSample(2, second, 1000, 2000, 2000, 2000)))
                .errorMessages(
                        List.of(
                                new RunSummary.ErrorCount("write: broken pipe", 3),
                                new RunSummary.ErrorCount("connect: refused", 1)))
                .build();
    }

    /** {@code summary} with {@code retried} requests written again. */
    static RunSummary withRetried(RunSummary summary, long retried) {
        return RunBuilder.from(summary)
                .counts(CountsBuilder.from(summary.counts()).retried(retried).build())
                .build();
    }

    /** A run that completed nothing at all. */
    static RunSummary empty() {
        return RunBuilder.aRun()
                .info(TINY_INFO)
                .latencyUs(new Histogram(3))
                .connectUs(new Histogram(3))
                .requestRate(new Histogram(3))
                .build();
    }
}
