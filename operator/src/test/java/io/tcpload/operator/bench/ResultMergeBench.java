package io.tcpload.operator.bench;

import io.tcpload.operator.crd.ResultSummary;
import io.tcpload.operator.results.ResultMerge;
import io.tcpload.operator.results.StatusSummaries;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunBuilder;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * What the operator pays to take in the results of 100 runners that each ran 24 hours: each result
 * as a runner serves it on {@code /result} (its per-second rows folded), parsed and kept as the
 * operator keeps them until every runner has reported, then merged once. Prints the size of one
 * result, the time to parse and merge all, and the peak heap. Run it with the chart's heap (75% of
 * the default 1 GiB limit): {@code bash bench/result-merge/run.sh}.
 */
public final class ResultMergeBench {
    private static final int RUNNERS = 100;
    private static final long DAY_MS = 24 * 3_600_000L;

    private ResultMergeBench() {}

    public static void main(String[] args) {
        List<String> served = new ArrayList<>();
        for (int runner = 0; runner < RUNNERS; runner++) {
            served.add(JsonResult.writeCompact(dayOfRunner(runner), null));
        }
        System.out.printf(
                Locale.ROOT,
                "one runner's result: %.1f KiB (%d runners x 24 h)%n",
                served.get(0).length() / 1024.0,
                RUNNERS);
        System.gc();
        resetPeaks();
        long startNs = System.nanoTime();
        List<RunSummary> kept = new ArrayList<>();
        for (String json : served) {
            kept.add(JsonResult.read(json));
        }
        RunSummary merged = ResultMerge.merge(kept);
        ResultSummary summary = StatusSummaries.from(merged);
        long tookMs = (System.nanoTime() - startNs) / 1_000_000;
        System.out.printf(
                Locale.ROOT,
                "parse and merge: %d ms; peak heap %.1f MiB of %.0f MiB max;"
                        + " merged %d requests, p99 %.1f ms, %d rows%n",
                tookMs,
                peakHeapBytes() / 1048576.0,
                Runtime.getRuntime().maxMemory() / 1048576.0,
                summary.getRequests(),
                summary.getLatency().getP99Ms(),
                merged.seconds().size());
    }

    /** A day's result shaped like a real one: latencies spread over four decades, every second. */
    private static RunSummary dayOfRunner(int runner) {
        SplittableRandom random = new SplittableRandom(runner);
        Histogram latency = Histograms.create();
        Histogram connect = Histograms.create();
        Histogram rate = Histograms.create();
        for (int i = 0; i < 2_000_000; i++) {
            latency.recordValue((long) (200 * Math.pow(10, random.nextDouble() * 3.5)));
        }
        for (int i = 0; i < 10_000; i++) {
            connect.recordValue(50 + random.nextInt(5_000));
            rate.recordValue(900 + random.nextInt(200));
        }
        List<SecondSample> seconds = new ArrayList<>();
        long requests = 0;
        for (int s = 1; s <= DAY_MS / 1000; s++) {
            long n = 950 + random.nextInt(100);
            requests += n;
            seconds.add(
                    new SecondSample(
                            s,
                            new Counts(n, n, 0, 0, 0, 0, 0, n * 64, n * 64, 0),
                            1_000 + random.nextInt(500),
                            5_000 + random.nextInt(1_000),
                            20_000 + random.nextInt(5_000),
                            100_000 + random.nextInt(50_000)));
        }
        return RunBuilder.aRun()
                .info(
                        new RunInfo(
                                "10.0.0.1:9000",
                                "bank.ini",
                                2,
                                100,
                                DAY_MS,
                                5_000,
                                true,
                                1,
                                "epoll"))
                .runtimeUs(DAY_MS * 1000)
                .counts(
                        new Counts(
                                requests, requests, 0, 0, 0, 0, 0, requests * 64, requests * 64, 0))
                .latencyUs(latency)
                .connectUs(connect)
                .requestRate(rate)
                .seconds(seconds)
                .startEpochUs(1_700_000_000_000_000L + runner)
                .lastStartEpochUs(1_700_000_000_000_100L + runner)
                .build();
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
    }

    private static long peakHeapBytes() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
