package io.tcpload.operator.reconciler;

import io.tcpload.runner.contract.Stopped;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.stats.RunSummary;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The results fetched from each test's runners, kept from their first fetch until the test ends: a
 * runner stopped early (its pod deleted, evicted, drained) serves its partial result only through
 * its grace period, and the other runners may run for long after it is gone. Read once, each result
 * is parsed once.
 *
 * <p>Threading: reconciles of different tests at once; never two of one test.
 */
final class ResultStore {
    /** One runner's result, and why it stopped early if it did. */
    record Kept(RunSummary summary, Optional<Stopped> stopped) {
        static Kept parse(String json) {
            return new Kept(JsonResult.read(json), JsonResult.stopped(json));
        }
    }

    private final Map<String, Map<Integer, Kept>> byTest = new ConcurrentHashMap<>();

    boolean has(String testUid, int index) {
        return byTest.getOrDefault(testUid, Map.of()).containsKey(index);
    }

    void put(String testUid, int index, Kept kept) {
        byTest.computeIfAbsent(testUid, uid -> new ConcurrentHashMap<>()).put(index, kept);
    }

    /** The test's results so far, by runner index. */
    Map<Integer, Kept> of(String testUid) {
        return new TreeMap<>(byTest.getOrDefault(testUid, Map.of()));
    }

    /** The test has ended (its merged result is in its status): its results go. */
    void forget(String testUid) {
        byTest.remove(testUid);
    }
}
