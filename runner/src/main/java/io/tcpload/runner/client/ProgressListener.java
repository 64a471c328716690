package io.tcpload.runner.client;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;

/** Told about each second of a run as it ends; called on the thread that runs the engine. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = (second, cumulative, errors) -> {};

    /**
     * @param second what happened in that second
     * @param cumulative totals since the start
     * @param errors the error messages of that second with their counts, most frequent first
     */
    void onSecond(SecondSample second, Counts cumulative, List<ErrorCount> errors);
}
