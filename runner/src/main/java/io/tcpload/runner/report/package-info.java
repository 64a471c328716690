/**
 * What a run prints and saves: the wrktcp-compatible console report, the per-second progress line,
 * the {@code --trace} table and the JSON result.
 *
 * <p>Everything here is pure: functions from an immutable {@link
 * io.tcpload.runner.stats.RunSummary} (or one of its parts) to text and back. Nothing writes to a
 * stream; the caller decides where the text goes (stdout, stderr, a file). The layout follows
 * wrktcp's {@code output.c} and {@code units.c} to the character, so scripts written against wrktcp
 * keep working; our additions (extra percentiles, the connect-time row, wrk's non-2xx line) only
 * add lines and never change existing ones.
 */
package io.tcpload.runner.report;
