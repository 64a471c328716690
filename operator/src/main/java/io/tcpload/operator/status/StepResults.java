package io.tcpload.operator.status;

import io.tcpload.runner.stats.RunSummary;
import java.util.Map;

/**
 * The results of one step of a capacity search fetched from the runners that have it ({@code GET
 * /step-result}), by runner index. Immutable.
 *
 * @param number the step, from 1; 0 for none
 * @param byRunner each result, by runner index
 */
public record StepResults(int number, Map<Integer, RunSummary> byRunner) {
    public static final StepResults NONE = new StepResults(0, Map.of());

    public StepResults {
        byRunner = Map.copyOf(byRunner);
    }
}
