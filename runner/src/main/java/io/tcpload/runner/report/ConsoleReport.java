package io.tcpload.runner.report;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import java.util.function.DoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The console text of a run, laid out as wrktcp prints it (banner, per-second progress line, final
 * report, trace table), so that tools which scrape wrktcp's output read ours unchanged.
 *
 * <p>Additions to wrktcp's layout are whole extra lines, never changes to existing ones: the 99.9%
 * and 99.99% percentiles, a {@code Connect} row under {@code Req/Sec} when connect times were
 * measured, wrk's {@code Non-2xx or 3xx responses} line for HTTP, and a {@code Retried requests}
 * line when requests were written again after the server closed their connection, and for a
 * transaction mix the {@link RequestTable} after {@code Transfer/sec}. Where wrktcp printed {@code
 * -nan%} for a run without samples we print {@code 0.00%}.
 *
 * <p>The progress line and the trace rows describe each second on its own (that second's success
 * and failure rates, its 99th percentile, its bytes read), where wrktcp printed averages since the
 * start and the latency of one arbitrary recent request; a single second's figures show a stall
 * when it happens instead of diluting it. Rates are over the second's real length, so that the last
 * second of a run that ends between whole seconds shows the rate it ran at, not its count.
 *
 * <p>All methods are pure and thread-safe; each returns text with {@code \n} line ends.
 */
public final class ConsoleReport {
    private static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99};

    private ConsoleReport() {}

    /** The two lines wrktcp prints before starting. */
    public static String banner(RunInfo info) {
        return "Running "
                + Units.duration(info.durationMs())
                + " loadtest @ "
                + info.target()
                // A URL run has no profile file: wrk's banner names the URL alone.
                + (info.profileName().equals(info.target()) ? "" : " using " + info.profileName())
                + "\n  "
                + info.threads()
                + " threads and "
                + info.connections()
                + " connections\n";
    }

    /**
     * One progress line, without the leading {@code \r} and without a line end; it ends with two
     * spaces, as wrktcp's, so a shorter line overwrites a longer one's tail.
     *
     * @param second the second just finished
     * @param cumulative totals since the start, for the error count
     */
    public static String progressLine(SecondSample second, Counts cumulative) {
        Counts counts = second.counts();
        return "  Time:"
                + second.second()
                + "s TPS:"
                + Units.fixed2(second.perSecond(counts.successes()))
                + "/"
                + Units.fixed2(second.perSecond(counts.failures()))
                + " Latency:"
                + Units.time(second.latencyP99Us())
                + " BPS:"
                + Units.binary(second.perSecond(counts.bytesRead()))
                + "B Error:"
                + cumulative.errors()
                + "  ";
    }

    /** The final report printed after the progress lines, trace table included when asked. */
    public static String render(RunSummary summary, ReportOptions options) {
        StringBuilder out = new StringBuilder(1024);
        out.append("  Thread Stats   Avg      Stdev     Max   +/- Stdev\n");
        statsRow(out, "Latency", HistogramStats.of(summary.latencyUs()), Units::time);
        statsRow(out, "Req/Sec", HistogramStats.of(summary.requestRate()), Units::metric);
        if (summary.connectUs().getTotalCount() > 0) {
            statsRow(out, "Connect", HistogramStats.of(summary.connectUs()), Units::time);
        }
        if (summary.handshakeUs().getTotalCount() > 0) {
            statsRow(out, "Handshake", HistogramStats.of(summary.handshakeUs()), Units::time);
        }
        RateSummary rate = summary.rate();
        if (options.latencyDistribution()) {
            if (rate == null) {
                latencyDistribution(out, summary.latencyUs());
            } else {
                // wrk2's layout: the latency counts from each request's intended send time.
                out.append(
                        RateReport.latencyDistribution(summary.latencyUs(), RateReport.RECORDED));
                if (options.uncorrectedLatency()) {
                    out.append(
                            RateReport.latencyDistribution(
                                    rate.uncorrectedUs(), RateReport.UNCORRECTED));
                }
            }
        }

        Counts counts = summary.counts();
        out.append("  ")
                .append(counts.requests())
                .append(" requests in ")
                .append(Units.time(summary.runtimeUs()))
                .append(", ")
                .append(Units.binary(counts.bytesRead()))
                .append("B read\n");
        if (counts.errors() > 0) {
            out.append("  Socket errors: connect ")
                    .append(counts.connectErrors())
                    .append(", read ")
                    .append(counts.readErrors())
                    .append(", write ")
                    .append(counts.writeErrors())
                    .append(", timeout ")
                    .append(counts.timeouts());
            if (counts.tlsErrors() > 0) {
                out.append(", tls ").append(counts.tlsErrors());
            }
            out.append('\n');
        }
        if (counts.retried() > 0) {
            out.append("  Retried requests: ").append(counts.retried()).append('\n');
        }
        if (counts.failures() > 0) {
            out.append("  Failure responses: ").append(counts.failures()).append('\n');
        }
        if (counts.non2xx3xx() > 0) {
            out.append("  Non-2xx or 3xx responses: ").append(counts.non2xx3xx()).append('\n');
        }
        if (rate != null) {
            out.append(RateReport.behindSchedule(rate.late(), rate.sent(), rate.lagUs()));
            out.append(RateReport.notSent(rate.planned(), rate.sent()));
        }

        double seconds = summary.runtimeUs() / 1_000_000.0;
        out.append("Requests/sec: ")
                .append(leftPad(Units.fixed2(perSecond(counts.requests(), seconds)), 9))
                .append("    (Success:")
                .append(Units.fixed2(perSecond(counts.successes(), seconds)))
                .append("/Failure:")
                .append(Units.fixed2(perSecond(counts.failures(), seconds)))
                .append(")\n");
        out.append("Transfer/sec: ")
                .append(leftPad(Units.binary(perSecond(counts.bytesRead(), seconds)), 10))
                .append("B\n");

        out.append(RequestTable.render(summary.byRequest()));
        if (rate != null && !rate.stages().isEmpty()) {
            out.append(RateReport.stageTable(rate.stages()));
        }
        if (options.trace()) {
            trace(out, summary.seconds());
        }
        return out.toString();
    }

    /** A rate over the runtime; 0 for a run that took no time rather than infinity. */
    static double perSecond(long amount, double seconds) {
        return seconds > 0 ? amount / seconds : 0;
    }

    /**
     * One value cell of nominal {@code width}, by wrktcp's rule: two trailing spaces, one fewer for
     * each letter among the last two characters (so units line up on the right), the text
     * right-aligned and cut to what is left.
     */
    static String cell(String text, int width) {
        int length = text.length();
        int pad = 2;
        if (length >= 1 && isAsciiLetter(text.charAt(length - 1))) {
            pad--;
        }
        if (length >= 2 && isAsciiLetter(text.charAt(length - 2))) {
            pad--;
        }
        int room = width - pad;
        String fitted = length > room ? text.substring(0, room) : leftPad(text, room);
        return fitted + " ".repeat(pad);
    }

    private static void statsRow(
            StringBuilder out, String name, HistogramStats stats, DoubleFunction<String> format) {
        out.append("    ")
                .append(rightPad(name, 10))
                .append(cell(format.apply(stats.mean()), 8))
                .append(cell(format.apply(stats.stdev()), 10))
                .append(cell(format.apply(stats.max()), 9))
                .append(leftPad(Units.fixed2(stats.withinStdevPercent()), 8))
                .append("%\n");
    }

    private static void latencyDistribution(StringBuilder out, Histogram latencyUs) {
        out.append("  Latency Distribution\n");
        for (double percentile : PERCENTILES) {
            long value =
                    latencyUs.getTotalCount() == 0 ? 0 : latencyUs.getValueAtPercentile(percentile);
            out.append(leftPad(percentileLabel(percentile), 7))
                    .append('%')
                    .append(cell(Units.time(value), 10))
                    .append('\n');
        }
    }

    /** {@code 50}, {@code 99.9}, {@code 99.99}: as few decimals as the percentile needs. */
    private static String percentileLabel(double percentile) {
        String text = Units.fixed(percentile, 2);
        text = text.replaceAll("0+$", "");
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    private static void trace(StringBuilder out, List<SecondSample> seconds) {
        out.append("  Trace Details:\n");
        out.append("   Time      Tps        Latency\n");
        for (SecondSample second : seconds) {
            out.append("  ")
                    .append(leftPad(Integer.toString(second.second()), 4))
                    .append("s  ")
                    .append(leftPad(Units.fixed2(second.perSecond(second.counts().successes())), 9))
                    .append("  ")
                    .append(leftPad(Units.time(second.latencyP99Us()), 10))
                    .append('\n');
        }
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static String leftPad(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }

    private static String rightPad(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }
}
