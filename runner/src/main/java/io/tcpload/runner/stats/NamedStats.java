package io.tcpload.runner.stats;

import io.tcpload.runner.stats.RunSummary.RequestStats;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The complete responses of each named request of a transaction mix, by the request's index: counts
 * and an exact latency histogram each. A response is recorded here as it is in the totals, so the
 * rows add up to the totals exactly.
 *
 * <p>Threading: single writer, like {@link LoopStats}; the collector moves a loop's figures out on
 * that loop.
 */
public final class NamedStats {
    private final long[] requests;
    private final long[] successes;
    private final long[] failures;
    private final Histogram[] latencyUs;

    /** Figures for {@code size} named requests, all zero. */
    public NamedStats(int size) {
        requests = new long[size];
        successes = new long[size];
        failures = new long[size];
        latencyUs = new Histogram[size];
        for (int i = 0; i < size; i++) {
            latencyUs[i] = Histograms.create();
        }
    }

    public int size() {
        return requests.length;
    }

    /** Request {@code index}'s complete responses. */
    public long requests(int index) {
        return requests[index];
    }

    /** Of those, the successes. */
    public long successes(int index) {
        return successes[index];
    }

    /** Of those, the failures. */
    public long failures(int index) {
        return failures[index];
    }

    /** One complete response to request {@code index}. */
    public void record(int index, boolean success, long latencyMicros) {
        requests[index]++;
        if (success) {
            successes[index]++;
        } else {
            failures[index]++;
        }
        Histograms.record(latencyUs[index], latencyMicros);
    }

    /** A request {@code index} not sent for a missing value: a failure without a latency. */
    public void recordUnsent(int index) {
        requests[index]++;
        failures[index]++;
    }

    /** Adds everything here to {@code target} (of the same size) and starts again from nothing. */
    public void moveTo(NamedStats target) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == 0) {
                continue;
            }
            target.requests[i] += requests[i];
            target.successes[i] += successes[i];
            target.failures[i] += failures[i];
            target.latencyUs[i].add(latencyUs[i]);
            requests[i] = 0;
            successes[i] = 0;
            failures[i] = 0;
            latencyUs[i].reset();
        }
    }

    /** The rows of the report, named by {@code names} (request {@code i} at index {@code i}). */
    public List<RequestStats> rows(List<String> names) {
        List<RequestStats> rows = new ArrayList<>(names.size());
        for (int i = 0; i < names.size() && i < requests.length; i++) {
            rows.add(
                    new RequestStats(
                            names.get(i), requests[i], successes[i], failures[i], latencyUs[i]));
        }
        return rows;
    }
}
