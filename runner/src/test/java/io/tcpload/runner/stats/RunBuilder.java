package io.tcpload.runner.stats;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Run summaries for tests, by name instead of fourteen positional arguments: {@link #aRun()} starts
 * from an empty one-second run, {@link #from} from an existing summary, and each setter changes one
 * component.
 */
public final class RunBuilder {
    /** What an empty test run asked for: one loop, one connection, one second. */
    public static final RunInfo INFO =
            new RunInfo("127.0.0.1:1", "test.ini", 1, 1, 1_000, 5_000, true, 1, "nio");

    private RunInfo info = INFO;
    private long runtimeUs = 1_000_000;
    private Counts counts = Counts.ZERO;
    private Histogram latencyUs = Histograms.create();
    private Histogram connectUs = Histograms.create();
    private Histogram requestRate = Histograms.create();
    private List<SecondSample> seconds = List.of();
    private List<RunSummary.ErrorCount> errorMessages = List.of();
    private long startEpochUs;
    private long lastStartEpochUs;
    private RateSummary rate;
    private List<RunSummary.AddressCount> addresses = List.of();
    private Histogram handshakeUs = Histograms.create();
    private List<RunSummary.RequestStats> byRequest = List.of();

    private RunBuilder() {}

    /** An empty closed-loop run of one second. */
    public static RunBuilder aRun() {
        return new RunBuilder();
    }

    /** Every component of {@code summary}, to change some. */
    public static RunBuilder from(RunSummary summary) {
        RunBuilder b = new RunBuilder();
        b.info = summary.info();
        b.runtimeUs = summary.runtimeUs();
        b.counts = summary.counts();
        b.latencyUs = summary.latencyUs();
        b.connectUs = summary.connectUs();
        b.requestRate = summary.requestRate();
        b.seconds = summary.seconds();
        b.errorMessages = summary.errorMessages();
        b.startEpochUs = summary.startEpochUs();
        b.lastStartEpochUs = summary.lastStartEpochUs();
        b.rate = summary.rate();
        b.addresses = summary.addresses();
        b.handshakeUs = summary.handshakeUs();
        b.byRequest = summary.byRequest();
        return b;
    }

    /** A histogram holding each {@code value, times} pair. */
    public static Histogram histogram(long... valueTimesPairs) {
        Histogram histogram = Histograms.create();
        for (int i = 0; i < valueTimesPairs.length; i += 2) {
            histogram.recordValueWithCount(valueTimesPairs[i], valueTimesPairs[i + 1]);
        }
        return histogram;
    }

    public RunBuilder info(RunInfo info) {
        this.info = info;
        return this;
    }

    public RunBuilder runtimeUs(long runtimeUs) {
        this.runtimeUs = runtimeUs;
        return this;
    }

    public RunBuilder counts(Counts counts) {
        this.counts = counts;
        return this;
    }

    public RunBuilder latencyUs(Histogram latencyUs) {
        this.latencyUs = latencyUs;
        return this;
    }

    public RunBuilder connectUs(Histogram connectUs) {
        this.connectUs = connectUs;
        return this;
    }

    public RunBuilder requestRate(Histogram requestRate) {
        this.requestRate = requestRate;
        return this;
    }

    public RunBuilder seconds(List<SecondSample> seconds) {
        this.seconds = seconds;
        return this;
    }

    public RunBuilder errorMessages(List<RunSummary.ErrorCount> errorMessages) {
        this.errorMessages = errorMessages;
        return this;
    }

    /** When the load began, its first and its last loop alike. */
    public RunBuilder startedAtEpochUs(long epochUs) {
        return startEpochUs(epochUs).lastStartEpochUs(epochUs);
    }

    public RunBuilder startEpochUs(long startEpochUs) {
        this.startEpochUs = startEpochUs;
        return this;
    }

    public RunBuilder lastStartEpochUs(long lastStartEpochUs) {
        this.lastStartEpochUs = lastStartEpochUs;
        return this;
    }

    public RunBuilder rate(RateSummary rate) {
        this.rate = rate;
        return this;
    }

    public RunBuilder addresses(List<RunSummary.AddressCount> addresses) {
        this.addresses = addresses;
        return this;
    }

    public RunBuilder handshakeUs(Histogram handshakeUs) {
        this.handshakeUs = handshakeUs;
        return this;
    }

    public RunBuilder byRequest(List<RunSummary.RequestStats> byRequest) {
        this.byRequest = byRequest;
        return this;
    }

    public RunSummary build() {
        return new RunSummary(
                info,
                runtimeUs,
                counts,
                latencyUs,
                connectUs,
                requestRate,
                seconds,
                errorMessages,
                startEpochUs,
                lastStartEpochUs,
                rate,
                addresses,
                handshakeUs,
                byRequest);
    }
}
