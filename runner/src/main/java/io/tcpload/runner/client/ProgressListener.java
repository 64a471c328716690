package io.tcpload.runner.client;

import io.tcpload.runner.stats.Counts;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.NamedStats;
import io.tcpload.runner.stats.RunSummary.ErrorCount;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Told about each second of a run as it ends; called on the thread that runs the engine. */
@FunctionalInterface
public interface ProgressListener {
    ProgressListener NONE = progress -> {};

    void onSecond(Progress progress);

    /**
     * The engine is ready (event loops up; armed for a start instant, connections open too) and
     * waits at its {@link StartGate}.
     */
    default void onReady() {}

    /**
     * The load has begun on every event loop: with a warm-up, the warm-up has.
     *
     * @param startEpochUs when the first loop began, in microseconds since the epoch
     */
    default void onStart(long startEpochUs) {}

    /**
     * During a warm-up, at its start and then once a second: the connections open. Nothing else of
     * a warm-up is told, since none of its figures count.
     *
     * @param openConnections connections established and not yet closed, over every loop
     */
    default void onWarmingUp(int openConnections) {}

    /**
     * The measured run has begun: right after {@link #onStart} without a warm-up, at the warm-up's
     * end with one. Its figures and seconds follow.
     *
     * @param startEpochUs when the measured run began, in microseconds since the epoch: the instant
     *     the summary's {@code startEpochUs} reports
     */
    default void onMeasuredStart(long startEpochUs) {}

    /**
     * One second of a run.
     *
     * @param second what happened in that second
     * @param cumulative totals since the start
     * @param latencyUs the latencies of that second; valid only during the call (it is reused)
     * @param connectUs the connect times of that second; valid only during the call
     * @param handshakeUs the TLS handshake times of that second; valid only during the call
     * @param errors the error messages of that second with their counts, most frequent first
     * @param openConnections connections established and not yet closed at the end of that second
     * @param paced rate mode's figures of that second, or null in the closed loop
     * @param byRequest per named request of a transaction mix, that second's responses; null
     *     without a mix; valid only during the call
     */
    record Progress(
            SecondSample second,
            Counts cumulative,
            Histogram latencyUs,
            Histogram connectUs,
            Histogram handshakeUs,
            List<ErrorCount> errors,
            int openConnections,
            Paced paced,
            NamedStats byRequest) {

        /** A second of a run of one request. */
        public Progress(
                SecondSample second,
                Counts cumulative,
                Histogram latencyUs,
                Histogram connectUs,
                Histogram handshakeUs,
                List<ErrorCount> errors,
                int openConnections,
                Paced paced) {
            this(
                    second,
                    cumulative,
                    latencyUs,
                    connectUs,
                    handshakeUs,
                    errors,
                    openConnections,
                    paced,
                    null);
        }

        /** A second without TLS handshakes. */
        public Progress(
                SecondSample second,
                Counts cumulative,
                Histogram latencyUs,
                Histogram connectUs,
                List<ErrorCount> errors,
                int openConnections,
                Paced paced,
                NamedStats byRequest) {
            this(
                    second,
                    cumulative,
                    latencyUs,
                    connectUs,
                    Histograms.create(),
                    errors,
                    openConnections,
                    paced,
                    byRequest);
        }

        /** A second of a run of one request, without TLS handshakes. */
        public Progress(
                SecondSample second,
                Counts cumulative,
                Histogram latencyUs,
                Histogram connectUs,
                List<ErrorCount> errors,
                int openConnections,
                Paced paced) {
            this(second, cumulative, latencyUs, connectUs, errors, openConnections, paced, null);
        }

        /** A closed-loop second. */
        public Progress(
                SecondSample second,
                Counts cumulative,
                Histogram latencyUs,
                Histogram connectUs,
                List<ErrorCount> errors,
                int openConnections) {
            this(second, cumulative, latencyUs, connectUs, errors, openConnections, null, null);
        }
    }

    /**
     * One second of rate mode, for this runner.
     *
     * @param sent sends written in that second
     * @param late of those, the ones written more than 1 ms after their intended time
     * @param targetRate this runner's requested rate at the end of that second, per second
     */
    record Paced(long sent, long late, double targetRate) {}
}
