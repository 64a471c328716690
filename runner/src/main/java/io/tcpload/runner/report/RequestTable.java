package io.tcpload.runner.report;

import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The report's table of a transaction mix: one row per named request, with its complete responses,
 * successes, failures and latency percentiles. Lines of their own after wrktcp's report, so a
 * profile of one request prints nothing more. Pure and thread-safe.
 */
public final class RequestTable {
    /** The percentiles of each row, and their headings. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private static final String[] HEADINGS = {"p50", "p90", "p99", "p99.9"};
    private static final int NUMBER_WIDTH = 10;

    private RequestTable() {}

    /** The table, or nothing when there are no rows. */
    public static String render(List<RequestStats> rows) {
        if (rows.isEmpty()) {
            return "";
        }
        int nameWidth = "Request".length();
        for (RequestStats row : rows) {
            nameWidth = Math.max(nameWidth, row.name().length());
        }
        StringBuilder out = new StringBuilder();
        out.append("  By request\n    ").append(rightPad("Request", nameWidth));
        for (String heading : new String[] {"Requests", "Success", "Failure"}) {
            out.append(leftPad(heading, NUMBER_WIDTH));
        }
        for (String heading : HEADINGS) {
            out.append(leftPad(heading, NUMBER_WIDTH));
        }
        out.append('\n');
        for (RequestStats row : rows) {
            out.append("    ")
                    .append(rightPad(row.name(), nameWidth))
                    .append(leftPad(Long.toString(row.requests()), NUMBER_WIDTH))
                    .append(leftPad(Long.toString(row.successes()), NUMBER_WIDTH))
                    .append(leftPad(Long.toString(row.failures()), NUMBER_WIDTH));
            for (double percentile : PERCENTILES) {
                out.append(leftPad(Units.time(valueAt(row.latencyUs(), percentile)), NUMBER_WIDTH));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** The latency at {@code percentile}, 0 for a request that got no response. */
    static long valueAt(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile);
    }

    private static String leftPad(String text, int width) {
        return text.length() >= width ? text : " ".repeat(width - text.length()) + text;
    }

    private static String rightPad(String text, int width) {
        return text.length() >= width ? text : text + " ".repeat(width - text.length());
    }
}
