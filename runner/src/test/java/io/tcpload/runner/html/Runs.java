package io.tcpload.runner.html;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.SecondSample;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Run summaries of a chosen length with known figures, for the report tests. */
final class Runs {
    private Runs() {}

    /**
     * {@code seconds} seconds of 1000 successes and 10 failures each (second 7 has 2 connect
     * errors), latency 1 ms for 99% and 25 ms for 1% of the responses.
     */
    static RunSummary steady(int seconds) {
        List<SecondSample> series = new ArrayList<>(seconds);
        Counts total = Counts.ZERO;
        for (int s = 1; s <= seconds; s++) {
            Counts counts =
                    new Counts(1_010, 1_000, 10, s == 7 ? 2 : 0, 0, 0, 0, 30_300, 20_200, 0);
            series.add(new SecondSample(s, counts, 1_000, 1_000, 25_000, 25_000));
            total = total.plus(counts);
        }
        Histogram latency = Histograms.create();
        latency.recordValueWithCount(1_000, 1_000L * seconds);
        latency.recordValueWithCount(25_000, 10L * seconds);
        Histogram connect = Histograms.create();
        connect.recordValueWithCount(150, 20);
        RunInfo info =
                new RunInfo(
                        "127.0.0.1:18101",
                        "pay<ments>.ini",
                        2,
                        20,
                        seconds * 1_000L,
                        5_000,
                        true,
                        1,
                        "epoll");
        return RunBuilder.aRun()
                .info(info)
                .runtimeUs(seconds * 1_000_000L)
                .counts(total)
                .latencyUs(latency)
                .connectUs(connect)
                .seconds(series)
                .errorMessages(List.of(new ErrorCount("connect: connection refused", 2)))
                .build();
    }
}
