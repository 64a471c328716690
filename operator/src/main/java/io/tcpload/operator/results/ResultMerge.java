package io.tcpload.operator.results;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunSummary.AddressCount;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.RunSummary.RequestStats;
import io.tcpload.runner.stats.SecondSample;
import io.tcpload.runner.stats.StageResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Merges the runners' results into one, exactly: histograms (latency, connect, TLS handshake,
 * request rate) are added bucket by bucket (so merged percentiles are those of all responses
 * together, never averages of percentiles), counts are summed (retried requests too), so are the
 * per-address counts address by address and a transaction mix's rows request name by request name,
 * and the runtime is the longest runner's. Pure; the inputs are not changed.
 */
public final class ResultMerge {
    private ResultMerge() {}

    /**
     * @throws IllegalArgumentException when {@code runners} is empty
     */
    public static RunSummary merge(List<RunSummary> runners) {
        if (runners.isEmpty()) {
            throw new IllegalArgumentException("no runner results to merge");
        }
        Histogram latency = Histograms.create();
        Histogram connect = Histograms.create();
        Histogram handshake = Histograms.create();
        Histogram requestRate = Histograms.create();
        Counts counts = Counts.ZERO;
        long runtimeUs = 0;
        Map<String, Long> errors = new LinkedHashMap<>();
        for (RunSummary runner : runners) {
            latency.add(runner.latencyUs());
            connect.add(runner.connectUs());
            handshake.add(runner.handshakeUs());
            requestRate.add(runner.requestRate());
            counts = counts.plus(runner.counts());
            runtimeUs = Math.max(runtimeUs, runner.runtimeUs());
            for (ErrorCount error : runner.errorMessages()) {
                errors.merge(error.message(), error.count(), Long::sum);
            }
        }
        List<ErrorCount> errorMessages = new ArrayList<>();
        errors.forEach((message, count) -> errorMessages.add(new ErrorCount(message, count)));
        errorMessages.sort(Comparator.comparingLong(ErrorCount::count).reversed());
        return new RunSummary(
                mergedInfo(runners),
                runtimeUs,
                counts,
                latency,
                connect,
                requestRate,
                mergedSeconds(runners),
                errorMessages,
                StartSkew.firstStartEpochUs(runners),
                StartSkew.lastStartEpochUs(runners),
                mergedRate(runners),
                mergedAddresses(runners),
                handshake,
                mergedByRequest(runners));
    }

    /** Request name by request name, in the order first seen, every runner's rows added exactly. */
    private static List<RequestStats> mergedByRequest(List<RunSummary> runners) {
        // One histogram per name, added into: a thousand runners' rows make no copies.
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, Histogram> latencies = new LinkedHashMap<>();
        for (RunSummary runner : runners) {
            for (RequestStats row : runner.byRequest()) {
                long[] sums = counts.computeIfAbsent(row.name(), n -> new long[3]);
                sums[0] += row.requests();
                sums[1] += row.successes();
                sums[2] += row.failures();
                latencies
                        .computeIfAbsent(row.name(), n -> Histograms.create())
                        .add(row.latencyUs());
            }
        }
        List<RequestStats> merged = new ArrayList<>();
        counts.forEach(
                (name, sums) ->
                        merged.add(
                                new RequestStats(
                                        name, sums[0], sums[1], sums[2], latencies.get(name))));
        return merged;
    }

    /** Address by address, in the order first seen, what every runner's connections to it got. */
    private static List<AddressCount> mergedAddresses(List<RunSummary> runners) {
        Map<String, long[]> byAddress = new LinkedHashMap<>();
        for (RunSummary runner : runners) {
            for (AddressCount address : runner.addresses()) {
                long[] sums = byAddress.computeIfAbsent(address.address(), a -> new long[2]);
                sums[0] += address.requests();
                sums[1] += address.errors();
            }
        }
        List<AddressCount> merged = new ArrayList<>();
        byAddress.forEach(
                (address, sums) -> merged.add(new AddressCount(address, sums[0], sums[1])));
        return merged;
    }

    /**
     * Rate mode's part, exactly: histograms added, sends summed, and stage by stage the runners'
     * shares added back into the whole test's rates. Null unless every runner was paced.
     */
    private static RateSummary mergedRate(List<RunSummary> runners) {
        if (runners.stream().anyMatch(runner -> runner.rate() == null)) {
            return null;
        }
        Histogram uncorrected = Histograms.create();
        Histogram lag = Histograms.create();
        double requestedRate = 0;
        long planned = 0;
        long sent = 0;
        long late = 0;
        List<StageResult> stages = new ArrayList<>();
        for (RunSummary runner : runners) {
            RateSummary rate = runner.rate();
            uncorrected.add(rate.uncorrectedUs());
            lag.add(rate.lagUs());
            requestedRate += rate.requestedRate();
            planned += rate.planned();
            sent += rate.sent();
            late += rate.late();
            for (int i = 0; i < rate.stages().size(); i++) {
                StageResult stage = rate.stages().get(i);
                if (i == stages.size()) {
                    Histogram stageLatency = Histograms.create();
                    stageLatency.add(stage.latencyUs());
                    stages.add(stage.withLatency(stageLatency));
                } else {
                    stages.set(i, stages.get(i).plus(stage));
                }
            }
        }
        return new RateSummary(requestedRate, planned, sent, late, uncorrected, lag, stages);
    }

    private static RunInfo mergedInfo(List<RunSummary> runners) {
        RunInfo first = runners.get(0).info();
        int threads = 0;
        int connections = 0;
        for (RunSummary runner : runners) {
            threads += runner.info().threads();
            connections += runner.info().connections();
        }
        return new RunInfo(
                first.target(),
                first.profileName(),
                threads,
                connections,
                first.durationMs(),
                first.timeoutMs(),
                first.keepAlive(),
                first.pipeline(),
                first.transport());
    }

    /**
     * Second by second, counts summed; the per-second percentiles cannot be merged exactly from the
     * samples, so the merged second keeps the worst runner's p50, p90, p99 and max (an upper
     * bound).
     */
    private static List<SecondSample> mergedSeconds(List<RunSummary> runners) {
        Map<Integer, SecondSample> bySecond = new java.util.TreeMap<>();
        for (RunSummary runner : runners) {
            for (SecondSample sample : runner.seconds()) {
                bySecond.merge(
                        sample.second(),
                        sample,
                        (a, b) ->
                                new SecondSample(
                                        a.second(),
                                        a.counts().plus(b.counts()),
                                        Math.max(a.latencyP50Us(), b.latencyP50Us()),
                                        Math.max(a.latencyP90Us(), b.latencyP90Us()),
                                        Math.max(a.latencyP99Us(), b.latencyP99Us()),
                                        Math.max(a.latencyMaxUs(), b.latencyMaxUs()),
                                        // The runners' last seconds end alike, give or take
                                        // their stops: the longest is the merged one's.
                                        Math.max(a.durationUs(), b.durationUs())));
            }
        }
        return List.copyOf(bySecond.values());
    }
}
