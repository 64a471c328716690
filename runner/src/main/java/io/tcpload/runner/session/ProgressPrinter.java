package io.tcpload.runner.session;

import io.tcpload.runner.client.ProgressListener;
import io.tcpload.runner.report.ConsoleReport;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import java.io.PrintStream;

/**
 * The per-second progress line and the second's error summaries. On a terminal the line is redrawn
 * in place; elsewhere (a file, {@code kubectl logs}, a CI log) each second is a line of its own, so
 * that a log shows one line per second instead of one line of carriage returns.
 */
public final class ProgressPrinter implements ProgressListener {
    private final PrintStream stream;
    private final boolean terminal;

    /**
     * @param stream where the lines go
     * @param terminal whether {@code stream} is a terminal
     */
    public ProgressPrinter(PrintStream stream, boolean terminal) {
        this.stream = stream;
        this.terminal = terminal;
    }

    /**
     * Progress for a command that prints its report on {@code out}: on {@code out} when it is the
     * terminal, else on {@code err}, so that a redirected report stays parseable.
     */
    public static ProgressPrinter forConsole(PrintStream out, PrintStream err) {
        if (out == System.out && Terminal.stdout()) {
            return new ProgressPrinter(out, true);
        }
        return new ProgressPrinter(err, err == System.err && Terminal.stderr());
    }

    @Override
    public void onSecond(Progress second) {
        String start = terminal ? "\r" : "";
        for (ErrorCount error : second.errors()) {
            stream.print(start + "  " + error.count() + " x " + error.message() + "\n");
        }
        stream.print(start + ConsoleReport.progressLine(second.second(), second.cumulative()));
        if (!terminal) {
            stream.print("\n");
        }
        stream.flush();
    }

    /** The run is over: the line redrawn in place is ended. */
    public void finished() {
        if (terminal) {
            stream.print("\n");
            stream.flush();
        }
    }
}
