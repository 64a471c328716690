package io.tcpload.runner.contract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What {@link RunnerProtocol#STATS} answers: the run's state after its last completed second, as
 * JSON that the runner writes and the orchestrator reads with this one type. Immutable.
 *
 * @param protocolVersion the {@link RunnerProtocol#VERSION} the runner speaks; 0 from a runner
 *     older than the field
 * @param runnerVersion the runner's version, for messages
 * @param phase where the run is
 * @param second the last completed second of the measured run, 1-based (0 before the first, and
 *     during a warm-up)
 * @param openConnections connections open at the end of that second; during a warm-up, those open
 *     now (told once a second)
 * @param cumulative totals since the start
 * @param lastSecond that second alone
 * @param latencyUs latency percentiles since the start, in microseconds
 * @param connectUs connect-time percentiles since the start, in microseconds
 * @param startEpochUs when the measured load really began, in microseconds since the epoch: after a
 *     warm-up, its end; the very instant the run's result says (0 before, and during a warm-up)
 * @param startAtEpochMs the start instant the runner was told, in milliseconds since the epoch on
 *     the orchestrator's clock (0 before): the orchestrator checks it is the one it set
 * @param clockOffsetUs the offset of this runner's clock from the orchestrator's that came with the
 *     instant, in microseconds (0 before): the runner began at {@code startAtEpochMs} plus this on
 *     its own clock, and its {@code startEpochUs} minus this is on the orchestrator's clock
 * @param nowEpochUs this runner's wall clock when it answered, in microseconds since the epoch: the
 *     orchestrator estimates the runner's clock offset from it and the round trip
 * @param step for a runner of a distributed capacity search, the number of the step it was told
 *     last (pending, running or run; 0 before any, and for any other runner)
 */
public record LiveStats(
        int protocolVersion,
        String runnerVersion,
        LivePhase phase,
        int second,
        int openConnections,
        Counts cumulative,
        LastSecond lastSecond,
        Percentiles latencyUs,
        Percentiles connectUs,
        long startEpochUs,
        long startAtEpochMs,
        long clockOffsetUs,
        long nowEpochUs,
        int step) {

    private static final ObjectMapper JSON =
            new ObjectMapper()
                    // A newer runner may say more; what this side knows it still reads.
                    .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                    .configure(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL, true);

    public LiveStats {
        // Unknown (a newer runner's) or missing: not one this side can act on.
        phase = phase == null ? LivePhase.WAITING : phase;
        cumulative = cumulative == null ? Counts.ZERO : cumulative;
        lastSecond = lastSecond == null ? LastSecond.NONE : lastSecond;
        latencyUs = latencyUs == null ? Percentiles.EMPTY : latencyUs;
        connectUs = connectUs == null ? Percentiles.EMPTY : connectUs;
    }

    /** A runner of {@code runnerVersion} that has not started. */
    public static LiveStats waiting(String runnerVersion) {
        return new LiveStats(
                RunnerProtocol.VERSION,
                runnerVersion,
                LivePhase.WAITING,
                0,
                0,
                Counts.ZERO,
                LastSecond.NONE,
                Percentiles.EMPTY,
                Percentiles.EMPTY,
                0,
                0,
                0,
                0,
                0);
    }

    public LiveStats withPhase(LivePhase newPhase) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                newPhase,
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                startEpochUs,
                startAtEpochMs,
                clockOffsetUs,
                nowEpochUs,
                step);
    }

    /** Running, measured since {@code epochUs}. */
    public LiveStats started(long epochUs) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                LivePhase.RUNNING,
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                epochUs,
                startAtEpochMs,
                clockOffsetUs,
                nowEpochUs,
                step);
    }

    /** With {@code count} connections open, the figures of the last second kept. */
    public LiveStats withOpenConnections(int count) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                phase,
                second,
                count,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                startEpochUs,
                startAtEpochMs,
                clockOffsetUs,
                nowEpochUs,
                step);
    }

    /** Told to start at {@code epochMs} with this runner's clock {@code offsetUs} off. */
    public LiveStats withStartAt(long epochMs, long offsetUs) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                phase,
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                startEpochUs,
                epochMs,
                offsetUs,
                nowEpochUs,
                step);
    }

    /** As answered at {@code epochUs} on the runner's clock. */
    public LiveStats answeredAt(long epochUs) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                phase,
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                startEpochUs,
                startAtEpochMs,
                clockOffsetUs,
                epochUs,
                step);
    }

    /** The figures of a completed second, phase and start kept. */
    public LiveStats withSecond(
            int newSecond,
            int newOpenConnections,
            Counts newCumulative,
            LastSecond newLastSecond,
            Percentiles newLatencyUs,
            Percentiles newConnectUs) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                phase,
                newSecond,
                newOpenConnections,
                newCumulative,
                newLastSecond,
                newLatencyUs,
                newConnectUs,
                startEpochUs,
                startAtEpochMs,
                clockOffsetUs,
                nowEpochUs,
                step);
    }

    /** Told step {@code number} last. */
    public LiveStats withStep(int number) {
        return new LiveStats(
                protocolVersion,
                runnerVersion,
                phase,
                second,
                openConnections,
                cumulative,
                lastSecond,
                latencyUs,
                connectUs,
                startEpochUs,
                startAtEpochMs,
                clockOffsetUs,
                nowEpochUs,
                number);
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("live stats do not serialise", e);
        }
    }

    /**
     * Reads what a runner's {@link RunnerProtocol#STATS} said. Fields this side does not know are
     * ignored, and missing ones are zero, so that a runner of another version is still read far
     * enough to learn its {@link #protocolVersion}.
     *
     * @throws IllegalArgumentException when the text is not such a document
     */
    public static LiveStats fromJson(String json) {
        try {
            return JSON.readValue(json, LiveStats.class);
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("not a runner's /stats: " + e.getMessage(), e);
        }
    }

    /**
     * One second. Its rates are over its real length, as the progress line's: a run's last second,
     * cut short by the end of the run or a stop, lasts less than a second.
     *
     * @param successTps responses judged successful in that second, per second
     * @param failureTps responses judged failed in that second, per second
     * @param errors socket-level errors in that second (a count)
     * @param latencyUs that second's latency percentiles, in microseconds
     * @param errorMessages that second's error messages, most frequent first
     * @param durationUs how long that second lasted, in microseconds: 1,000,000 for a whole one (0
     *     before the first, and from a runner older than the field)
     */
    public record LastSecond(
            double successTps,
            double failureTps,
            long errors,
            Percentiles latencyUs,
            List<ErrorCount> errorMessages,
            long durationUs) {
        static final LastSecond NONE = new LastSecond(0, 0, 0, Percentiles.EMPTY, List.of(), 0);

        public LastSecond {
            latencyUs = latencyUs == null ? Percentiles.EMPTY : latencyUs;
            errorMessages = errorMessages == null ? List.of() : List.copyOf(errorMessages);
        }

        /** Responses in that second, successful or not, per second. */
        public double tps() {
            return successTps + failureTps;
        }
    }

    /**
     * Percentiles of a histogram, as HdrHistogram reports them (0 when it is empty).
     *
     * @param count values recorded
     * @param mean their mean
     */
    public record Percentiles(
            long count, double mean, long p50, long p90, long p99, long p999, long max) {
        public static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0, 0, 0);

        public static Percentiles of(Histogram histogram) {
            if (histogram.getTotalCount() == 0) {
                return EMPTY;
            }
            return new Percentiles(
                    histogram.getTotalCount(),
                    histogram.getMean(),
                    histogram.getValueAtPercentile(50),
                    histogram.getValueAtPercentile(90),
                    histogram.getValueAtPercentile(99),
                    histogram.getValueAtPercentile(99.9),
                    histogram.getMaxValue());
        }
    }
}
