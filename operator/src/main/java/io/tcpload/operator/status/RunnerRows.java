package io.tcpload.operator.status;

import io.tcpload.operator.crd.RunnerStatus;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keeps the status's runner rows bounded. Up to {@link #ROWS_MAX} runners every runner has its row;
 * past that only the runners with something to say keep theirs (a message, a partial result, a
 * phase other than Running or Succeeded), at most {@link #ROWS_MAX} of them, and the others are
 * counted by phase. A row that carries the operator's own state (since when a runner has been
 * unreachable) is always kept: without it the runner's clock towards "lost" would start again at
 * every reconcile.
 */
public final class RunnerRows {
    /** Rows written in full; 1,000 runners' status stays near 100 KiB. */
    public static final int ROWS_MAX = 100;

    private RunnerRows() {}

    /** Bounds {@code status}'s runner rows in place, and counts the ones left out. */
    static void bound(TcpLoadTestStatus status) {
        List<RunnerStatus> rows = status.getRunners();
        if (rows == null || rows.size() <= ROWS_MAX) {
            // Also a finished test's rows, bounded when it finished: their counts stay.
            return;
        }
        List<RunnerStatus> kept = new ArrayList<>();
        Map<String, Integer> omittedByPhase = new TreeMap<>();
        int notable = 0;
        int omitted = 0;
        for (RunnerStatus row : rows) {
            if (row.getUnreachableSince() != null) {
                kept.add(row);
            } else if (notable(row) && notable < ROWS_MAX) {
                kept.add(row);
                notable++;
            } else {
                omitted++;
                omittedByPhase.merge(String.valueOf(row.getPhase()), 1, Integer::sum);
            }
        }
        status.setRunners(kept);
        status.setRunnersOmitted(omitted);
        status.setOmittedRunnersByPhase(omittedByPhase);
    }

    private static boolean notable(RunnerStatus row) {
        return row.getMessage() != null
                || Boolean.TRUE.equals(row.getPartial())
                || !("Running".equals(row.getPhase()) || "Succeeded".equals(row.getPhase()));
    }
}
