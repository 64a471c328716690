package io.tcpload.runner.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.StageResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RateReportTest {

    @Test
    void latencyDistributionIsWrk2sBlock() {
        Histogram latencyUs = Histograms.create();
        // 3000 us falls in a bucket two microseconds wide: HdrHistogram reports its top, 3001.
        recordTimes(latencyUs, 1500, 2);
        recordTimes(latencyUs, 3000, 2);

        assertThat(RateReport.latencyDistribution(latencyUs, RateReport.RECORDED))
                .isEqualTo(
                        """
                          Latency Distribution (HdrHistogram - Recorded Latency)
                         50.000%    1.50ms
                         75.000%    3.00ms
                         90.000%    3.00ms
                         99.000%    3.00ms
                         99.900%    3.00ms
                         99.990%    3.00ms
                         99.999%    3.00ms
                        100.000%    3.00ms

                          Detailed Percentile spectrum:
                               Value   Percentile   TotalCount 1/(1-Percentile)

                               1.500     0.000000            2         1.00
                               1.500     0.100000            2         1.11
                               1.500     0.200000            2         1.25
                               1.500     0.300000            2         1.43
                               1.500     0.400000            2         1.67
                               1.500     0.500000            2         2.00
                               3.001     0.550000            4         2.22
                               3.001     1.000000            4          inf
                        #[Mean    =        2.251, StdDeviation   =        0.750]
                        #[Max     =        3.001, Total count    =            4]
                        #[Buckets =           22, SubBuckets     =         2048]
                        ----------------------------------------------------------
                        """);
    }

    @Test
    void theUncorrectedBlockNamesWrk2sDescriptionAndUnitsFollowWrktcp() {
        Histogram latencyUs = Histograms.create();
        recordTimes(latencyUs, 400, 90);
        recordTimes(latencyUs, 2_000_000, 10);

        String text = RateReport.latencyDistribution(latencyUs, RateReport.UNCORRECTED);

        assertThat(text)
                .startsWith(
                        "  Latency Distribution (HdrHistogram - Uncorrected Latency (measured"
                                + " without taking delayed starts into account))\n"
                                + " 50.000%  400.00us\n"
                                + " 75.000%  400.00us\n"
                                + " 90.000%  400.00us\n"
                                // 2 s lies in a 1024 us wide bucket: its top is 2000895 us.
                                + " 99.000%    2.00s \n");
    }

    @Test
    void anEmptyHistogramPrintsZerosAndNoRows() {
        String text = RateReport.latencyDistribution(Histograms.create(), RateReport.RECORDED);

        assertThat(text).contains("100.000%    0.00us\n");
        assertThat(text)
                .contains(
                        "1/(1-Percentile)\n\n#[Mean    =        0.000, StdDeviation   =       "
                                + " 0.000]\n");
        assertThat(text).doesNotContain("NaN").doesNotContain("nan");
    }

    @Test
    void theSpectrumHasHdrHistogramsOwnRowsAndFooter() {
        Histogram latencyUs = Histograms.create();
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            // A long tail: most around a millisecond, a few up to seconds.
            Histograms.record(latencyUs, (long) (800 + Math.pow(random.nextDouble(), 8) * 3e6));
        }

        List<double[]> ours = rows(RateReport.percentileSpectrum(latencyUs));
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        latencyUs.outputPercentileDistribution(
                new PrintStream(buffer, true, StandardCharsets.UTF_8), 5, 1000.0);
        String theirs = buffer.toString(StandardCharsets.UTF_8);
        List<double[]> reference = rows(theirs);

        assertThat(ours).hasSameSizeAs(reference).hasSizeGreaterThan(50);
        for (int i = 0; i < ours.size(); i++) {
            double[] a = ours.get(i);
            double[] b = reference.get(i);
            assertThat(a[0]).as("value of row %d", i).isCloseTo(b[0], within(0.0011));
            assertThat(a[1]).as("percentile of row %d", i).isCloseTo(b[1], within(1e-6));
            assertThat(a[2]).as("count of row %d", i).isEqualTo(b[2]);
        }
        String footer = RateReport.percentileSpectrum(latencyUs);
        for (String line : theirs.split("\n")) {
            if (line.startsWith("#[Buckets") || line.startsWith("#[Max")) {
                assertThat(footer).contains(line + "\n");
            }
        }
    }

    @Test
    void bucketCountsFollowHdrHistogramsSizing() {
        // wrk2's histogram: 1 us to 24 h, 3 digits, which wrk2 prints as 27 buckets of 2048.
        Histogram wrk2 = new Histogram(1, 86_400_000_000L, 3);
        assertThat(RateReport.bucketCount(wrk2)).isEqualTo(27);
        assertThat(RateReport.subBucketCount(wrk2)).isEqualTo(2048);
        assertThat(RateReport.bucketCount(Histograms.create())).isEqualTo(22);
        assertThat(RateReport.subBucketCount(new Histogram(1, 1000, 2))).isEqualTo(256);
    }

    @Test
    void stageTableShowsTargetsAchievedRatesAndPercentiles() {
        Histogram first = Histograms.create();
        recordTimes(first, 900, 14_000);
        recordTimes(first, 5_000, 990);
        recordTimes(first, 120_000, 10);
        Histogram second = Histograms.create();
        recordTimes(second, 1_200, 299_000);
        recordTimes(second, 40_000, 1_000);
        List<StageResult> stages =
                List.of(
                        new StageResult(
                                1, 30_000, 0, 1000, 15_000, counts(15_000, 14_990, 10, 0), first),
                        new StageResult(
                                2,
                                60_000,
                                1000,
                                5000,
                                300_000,
                                counts(299_990, 299_990, 0, 3),
                                second),
                        new StageResult(3, 500, 0, 0, 0, Counts.ZERO, Histograms.create()),
                        new StageResult(4, 10_000, 2.5, 2.5, 25, counts(25, 25, 0, 0), first),
                        new StageResult(5, 1_500, 0, 0, 0, Counts.ZERO, Histograms.create()));

        assertThat(RateReport.stageTable(stages))
                .isEqualTo(
                        """
                          Stages:
                          Stage  Duration        Target   Achieved  Success/s  Failure/s       p50       p90       p99     p99.9  Errors
                              1       30s       0->1000     500.00     499.67       0.33    0.90ms    0.90ms    5.00ms    5.00ms       0
                              2        1m    1000->5000    5000.00    4999.83       0.00    1.20ms    1.20ms    1.20ms   40.03ms       3
                              3     500ms             0       0.00       0.00       0.00         -         -         -         -       0
                              4       10s          2.50       2.50       2.50       0.00    0.90ms    0.90ms    5.00ms    5.00ms       0
                              5    1500ms             0       0.00       0.00       0.00         -         -         -         -       0
                        """);
    }

    @Test
    void behindScheduleSaysHowManyAndHowFar() {
        Histogram lagUs = Histograms.create();
        recordTimes(lagUs, 20, 996);
        recordTimes(lagUs, 2_000, 3);
        recordTimes(lagUs, 14_000, 1);

        assertThat(RateReport.behindSchedule(4, 1000, lagUs))
                .isEqualTo(
                        "  Behind schedule: 4 of 1000 sends more than 1ms late (0.40%);"
                                + " send lag p50 20.00us, p99 20.00us, max 14.01ms\n");
        assertThat(RateReport.behindSchedule(0, 1000, Histograms.create()))
                .isEqualTo("  Behind schedule: 0 of 1000 sends more than 1ms late (0.00%)\n");
    }

    @Test
    void sendsPlannedAndNeverWrittenAreCounted() {
        assertThat(RateReport.notSent(1000, 621))
                .isEqualTo(
                        "  Not sent: 379 of 1000 planned sends (37.90%): every connection was"
                                + " waiting for an answer\n");
        assertThat(RateReport.notSent(1000, 1000)).isEmpty();
    }

    private static Counts counts(long requests, long successes, long failures, long errors) {
        return new Counts(requests, successes, failures, 0, 0, 0, errors, 0, 0, 0);
    }

    private static void recordTimes(Histogram histogram, long value, long times) {
        histogram.recordValueWithCount(value, times);
    }

    /** The numeric rows of a percentile table: value, percentile, total count. */
    private static List<double[]> rows(String table) {
        List<double[]> rows = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length >= 3 && fields[0].matches("[0-9.]+")) {
                rows.add(
                        new double[] {
                            Double.parseDouble(fields[0]),
                            Double.parseDouble(fields[1]),
                            Double.parseDouble(fields[2])
                        });
            }
        }
        return rows;
    }
}
