package io.tcpload.runner.report;

import io.tcpload.runner.format.Quantities;
import io.tcpload.runner.stats.StageResult;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The report sections of constant-rate and staged runs, laid out as wrk2 prints them: the
 * percentile lines of {@code --latency} (with wrk2's 99.999% and 100% lines), the detailed
 * percentile spectrum of HdrHistogram's classic text format (values in milliseconds), the
 * behind-schedule line and the per-stage table.
 *
 * <p>Histograms hold microseconds. Numbers are printed as C's {@code printf} prints them (see
 * {@link Units}), so that scripts that read wrk2's output read ours. All methods are pure and
 * thread-safe (they only read the histograms they get); each returns text with {@code \n} line
 * ends.
 */
public final class RateReport {
    /** wrk2's description of the histogram of latencies from the intended send time. */
    public static final String RECORDED = "Recorded Latency";

    /** wrk2's description of the histogram of latencies from the actual write ({@code -U}). */
    public static final String UNCORRECTED =
            "Uncorrected Latency (measured without taking delayed starts into account)";

    private static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99, 99.999, 100};

    /** Rows per halving of the distance to 100%, as wrk2 asks HdrHistogram for. */
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    private static final double MICROS_PER_MILLI = 1000.0;
    private static final String RULE = "-".repeat(58) + "\n";

    private RateReport() {}

    /**
     * wrk2's latency block: the heading naming {@code description} ({@link #RECORDED} or {@link
     * #UNCORRECTED}), the eight percentile lines, the detailed spectrum and a closing rule.
     */
    public static String latencyDistribution(Histogram latencyUs, String description) {
        StringBuilder out = new StringBuilder(4096);
        out.append("  Latency Distribution (HdrHistogram - ").append(description).append(")\n");
        boolean empty = latencyUs.getTotalCount() == 0;
        for (double percentile : PERCENTILES) {
            long value = empty ? 0 : latencyUs.getValueAtPercentile(percentile);
            out.append(leftPad(Units.fixed(percentile, 3), 7))
                    .append('%')
                    .append(ConsoleReport.cell(Units.time(value), 10))
                    .append('\n');
        }
        out.append("\n  Detailed Percentile spectrum:\n");
        out.append(percentileSpectrum(latencyUs));
        out.append(RULE);
        return out.toString();
    }

    /**
     * HdrHistogram's classic percentile table of {@code latencyUs} in milliseconds: the column
     * heading, one row per percentile step (value, percentile, count up to it, {@code
     * 1/(1-percentile)}), and the three {@code #[...]} footer lines with the mean, the standard
     * deviation, the maximum, the count and the histogram's shape.
     */
    public static String percentileSpectrum(Histogram latencyUs) {
        StringBuilder out = new StringBuilder(4096);
        out.append(leftPad("Value", 12))
                .append(' ')
                .append(leftPad("Percentile", 12))
                .append(' ')
                .append(leftPad("TotalCount", 12))
                .append(' ')
                .append(leftPad("1/(1-Percentile)", 12))
                .append("\n\n");
        if (latencyUs.getTotalCount() > 0) {
            for (HistogramIterationValue step : latencyUs.percentiles(TICKS_PER_HALF_DISTANCE)) {
                double fraction = step.getPercentileLevelIteratedTo() / 100.0;
                out.append(leftPad(millis(step.getValueIteratedTo()), 12))
                        .append(' ')
                        .append(leftPad(Units.fixed(fraction, 6), 12))
                        .append(' ')
                        .append(leftPad(Long.toString(step.getTotalCountToThisValue()), 12))
                        .append(' ')
                        // 1/(1-1) is infinite: C prints "inf", and so does Units.fixed.
                        .append(leftPad(Units.fixed(1.0 / (1.0 - fraction), 2), 12))
                        .append('\n');
            }
        }
        out.append("#[Mean    = ")
                .append(leftPad(Units.fixed(latencyUs.getMean() / MICROS_PER_MILLI, 3), 12))
                .append(", StdDeviation   = ")
                .append(leftPad(Units.fixed(latencyUs.getStdDeviation() / MICROS_PER_MILLI, 3), 12))
                .append("]\n");
        out.append("#[Max     = ")
                .append(leftPad(millis(latencyUs.getMaxValue()), 12))
                .append(", Total count    = ")
                .append(leftPad(Long.toString(latencyUs.getTotalCount()), 12))
                .append("]\n");
        out.append("#[Buckets = ")
                .append(leftPad(Integer.toString(bucketCount(latencyUs)), 12))
                .append(", SubBuckets     = ")
                .append(leftPad(Integer.toString(subBucketCount(latencyUs)), 12))
                .append("]\n");
        return out.toString();
    }

    /**
     * How far sends fell behind their fire times: {@code late} of {@code sends} went out more than
     * 1 ms after their intended time; {@code lagUs} holds every send's lag, whose median, 99th
     * percentile and maximum follow.
     */
    public static String behindSchedule(long late, long sends, Histogram lagUs) {
        StringBuilder out = new StringBuilder(128);
        out.append("  Behind schedule: ")
                .append(late)
                .append(" of ")
                .append(sends)
                .append(" sends more than 1ms late (")
                .append(Units.fixed2(ConsoleReport.perSecond(100 * late, sends)))
                .append("%)");
        if (lagUs.getTotalCount() > 0) {
            out.append("; send lag p50 ")
                    .append(Units.time(lagUs.getValueAtPercentile(50)))
                    .append(", p99 ")
                    .append(Units.time(lagUs.getValueAtPercentile(99)))
                    .append(", max ")
                    .append(Units.time(lagUs.getMaxValue()));
        }
        return out.append('\n').toString();
    }

    /**
     * The sends the schedule planned that were never written, or nothing when every one was: a
     * target that stops answering holds every connection, and the sends due meanwhile wait; those
     * still waiting at the end have no response and so no latency, and would otherwise leave the
     * report without a trace but a lower rate.
     */
    public static String notSent(long planned, long sent) {
        if (sent >= planned) {
            return "";
        }
        long unsent = planned - sent;
        return "  Not sent: "
                + unsent
                + " of "
                + planned
                + " planned sends ("
                + Units.fixed2(ConsoleReport.perSecond(100 * unsent, planned))
                + "%): every connection was waiting for an answer\n";
    }

    /**
     * The per-stage table: each stage's duration, requested rate ({@code from->to} for a ramp),
     * achieved send rate, success and failure responses per second, corrected latency percentiles
     * and socket errors.
     */
    public static String stageTable(List<StageResult> stages) {
        StringBuilder out = new StringBuilder(256 + 160 * stages.size());
        out.append("  Stages:\n");
        out.append("  ")
                .append(leftPad("Stage", 5))
                .append(leftPad("Duration", 10))
                .append(leftPad("Target", 14))
                .append(leftPad("Achieved", 11))
                .append(leftPad("Success/s", 11))
                .append(leftPad("Failure/s", 11))
                .append(leftPad("p50", 10))
                .append(leftPad("p90", 10))
                .append(leftPad("p99", 10))
                .append(leftPad("p99.9", 10))
                .append(leftPad("Errors", 8))
                .append('\n');
        for (StageResult stage : stages) {
            double seconds = stage.durationMs() / 1000.0;
            Histogram latency = stage.latencyUs();
            out.append("  ")
                    .append(leftPad(Integer.toString(stage.stage()), 5))
                    .append(leftPad(Quantities.formatDurationMs(stage.durationMs()), 10))
                    .append(leftPad(target(stage.fromRate(), stage.targetRate()), 14))
                    .append(leftPad(Units.fixed2(stage.sent() / seconds), 11))
                    .append(leftPad(Units.fixed2(stage.counts().successes() / seconds), 11))
                    .append(leftPad(Units.fixed2(stage.counts().failures() / seconds), 11))
                    .append(leftPad(percentile(latency, 50), 10))
                    .append(leftPad(percentile(latency, 90), 10))
                    .append(leftPad(percentile(latency, 99), 10))
                    .append(leftPad(percentile(latency, 99.9), 10))
                    .append(leftPad(Long.toString(stage.counts().errors()), 8))
                    .append('\n');
        }
        return out.toString();
    }

    private static String target(double from, double to) {
        return from == to ? rate(to) : rate(from) + "->" + rate(to);
    }

    /** A requested rate: whole numbers as such ({@code 5000}), others with two decimals. */
    private static String rate(double perSecond) {
        return perSecond == Math.rint(perSecond) && perSecond < 1e15
                ? Long.toString((long) perSecond)
                : Units.fixed2(perSecond);
    }

    private static String percentile(Histogram latencyUs, double percentile) {
        return latencyUs.getTotalCount() == 0
                ? "-"
                : Units.time(latencyUs.getValueAtPercentile(percentile));
    }

    private static String millis(long micros) {
        return Units.fixed(micros / MICROS_PER_MILLI, 3);
    }

    /**
     * The number of sub-buckets per bucket: the power of two that holds {@code 2 * 10^digits}
     * distinct values, as HdrHistogram sizes it.
     */
    static int subBucketCount(Histogram histogram) {
        long largestSingleUnitResolution =
                2 * (long) Math.pow(10, histogram.getNumberOfSignificantValueDigits());
        int magnitude = 64 - Long.numberOfLeadingZeros(largestSingleUnitResolution - 1);
        return 1 << magnitude;
    }

    /**
     * The number of buckets HdrHistogram needs to cover the histogram's highest trackable value,
     * each doubling the range of the one before.
     */
    static int bucketCount(Histogram histogram) {
        int unitMagnitude = 63 - Long.numberOfLeadingZeros(histogram.getLowestDiscernibleValue());
        long smallestUntrackable = (long) subBucketCount(histogram) << unitMagnitude;
        int buckets = 1;
        while (smallestUntrackable <= histogram.getHighestTrackableValue()) {
            if (smallestUntrackable > Long.MAX_VALUE / 2) {
                return buckets + 1;
            }
            smallestUntrackable <<= 1;
            buckets++;
        }
        return buckets;
    }

    private static String leftPad(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }
}
