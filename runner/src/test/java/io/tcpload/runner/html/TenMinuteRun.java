package io.tcpload.runner.html;

import io.tcpload.runner.rate.FireTimes;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.Stage;
import io.tcpload.runner.stats.ErrorKind;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.LoopStats;
import io.tcpload.runner.stats.PacedStats;
import io.tcpload.runner.stats.RateSummary;
import io.tcpload.runner.stats.RunInfo;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.stats.RunTally;
import io.tcpload.runner.stats.SecondSample;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.HdrHistogram.Histogram;

/**
 * A ten-minute staged rate-mode run of two event loops, replayed without a clock or a network:
 * every send of the real schedule is recorded into each loop's {@link LoopStats} and {@link
 * PacedStats} the way the connections record them (send, then response or error, in the second it
 * happens), and once a second the loops are drained into a {@link RunTally} the way the engine's
 * collector drains them. The summary is therefore built by the code a real run uses; the figures
 * this class counts on its own side are what the report must show.
 *
 * <p>The target it pretends to load answers in about 2 ms, slower as the rate rises, with a tail;
 * it stalls for 350 ms at 5:00 (sends wait, so the corrected latency jumps while the uncorrected
 * one does not), resets connections at 4:10 (read errors, then refused reconnects), answers slowly
 * and with more failures from 7:00 to 7:30, and leaves a few requests unanswered at 8:00, which
 * time out 5 s later.
 */
final class TenMinuteRun {
    static final int SECONDS = 600;
    static final int LOOPS = 2;
    static final int CONNECTIONS_PER_LOOP = 4;
    static final long TIMEOUT_MS = 5_000;
    static final long RUNTIME_US = 600_001_870;
    static final long REQUEST_BYTES = 61;
    static final long RESPONSE_BYTES = 74;

    static final String RESET = "read: Connection reset by peer";
    static final String REFUSED = "connect: Connection refused";
    static final String TIMED_OUT = "timeout: no response within 5000ms";

    /** Ramp to 800/s in a minute, hold for eight, ramp down to 200/s in the last minute. */
    static final RateSchedule SCHEDULE =
            RateSchedule.stages(
                    0,
                    List.of(
                            new Stage(60_000, 800),
                            new Stage(480_000, 800),
                            new Stage(60_000, 200)));

    private static final long NS_PER_SECOND = 1_000_000_000L;
    private static final long STALL_START_NS = 300 * NS_PER_SECOND;
    private static final long STALL_END_NS = STALL_START_NS + 350_000_000L;

    final RunSummary summary;

    long requests;
    long successes;
    long failures;
    long readErrors;
    long connectErrors;
    long timeouts;
    long bytesRead;
    long bytesWritten;
    long late;
    final long[] successesPerSecond = new long[SECONDS];
    final long[] failuresPerSecond = new long[SECONDS];
    final long[] errorsPerSecond = new long[SECONDS];
    final long[] sentPerStage = new long[3];

    /** Every corrected latency that was recorded, in one histogram of its own. */
    final Histogram latencyUs = Histograms.create();

    private final Random random = new Random(20_260_601L);

    /** A response or a timeout that is due at {@code atNs}. */
    private record Pending(
            long atNs,
            int loop,
            long intendedNs,
            long writtenNs,
            boolean answered,
            boolean success) {}

    TenMinuteRun() {
        LoopStats[] loops = new LoopStats[LOOPS];
        PacedStats[] paced = new PacedStats[LOOPS];
        FireTimes[] fireTimes = new FireTimes[LOOPS];
        for (int i = 0; i < LOOPS; i++) {
            loops[i] = new LoopStats();
            loops[i].start(0);
            paced[i] = new PacedStats(SCHEDULE);
            fireTimes[i] = SCHEDULE.fireTimes(i, LOOPS);
            for (int c = 0; c < CONNECTIONS_PER_LOOP; c++) {
                loops[i].recordConnect(150 + random.nextInt(250));
                loops[i].connectionOpened();
            }
        }
        PriorityQueue<Pending> pending =
                new PriorityQueue<>((a, b) -> Long.compare(a.atNs(), b.atNs()));
        RunTally tally = new RunTally(true);
        for (int second = 1; second <= SECONDS; second++) {
            // Ten slices a second, so that the loops' 100 ms request-rate samples see real slices.
            for (int slice = 1; slice <= 10; slice++) {
                long sliceEndNs = (second - 1) * NS_PER_SECOND + slice * NS_PER_SECOND / 10;
                for (int i = 0; i < LOOPS; i++) {
                    while (fireTimes[i].peek() < sliceEndNs) {
                        send(i, fireTimes[i].next(), loops[i], paced[i], pending);
                    }
                }
                while (!pending.isEmpty() && pending.peek().atNs() < sliceEndNs) {
                    Pending done = pending.poll();
                    complete(done, loops[done.loop()], paced[done.loop()]);
                }
                for (LoopStats loop : loops) {
                    loop.sampleRate(sliceEndNs);
                }
            }
            tally.beginSecond();
            for (LoopStats loop : loops) {
                tally.drain(loop);
            }
            for (PacedStats loop : paced) {
                tally.drainPaced(loop);
            }
            tally.endSecond(second, SecondSample.SECOND_US);
        }
        // What is still in flight at the end is not part of the run, as in the engine.
        List<PacedStats.StageTally> stages =
                PacedStats.StageTally.forStages(SCHEDULE.stages().size());
        for (PacedStats loop : paced) {
            loop.addStagesTo(stages);
        }
        RateSummary rate = tally.rateSummary(SCHEDULE, true, 0, 1, stages, SECONDS * NS_PER_SECOND);
        RunInfo info =
                new RunInfo(
                        "127.0.0.1:18101",
                        "quickstart.ini",
                        LOOPS,
                        LOOPS * CONNECTIONS_PER_LOOP,
                        SECONDS * 1_000L,
                        TIMEOUT_MS,
                        true,
                        1,
                        "epoll");
        summary =
                tally.summary(
                        info, RUNTIME_US, 1_780_000_000_000_000L, 1_780_000_000_000_000L, rate);
    }

    private void send(
            int loopIndex,
            long intendedNs,
            LoopStats loop,
            PacedStats paced,
            PriorityQueue<Pending> pending) {
        // During the stall every connection is busy: the send waits until it ends.
        long writtenNs =
                intendedNs >= STALL_START_NS && intendedNs < STALL_END_NS
                        ? STALL_END_NS + random.nextInt(2_000_000)
                        : intendedNs + 5_000 + (long) (random.nextDouble() * 60_000);
        paced.recordSend(intendedNs, writtenNs - intendedNs);
        loop.recordBytesWritten(REQUEST_BYTES);
        bytesWritten += REQUEST_BYTES;
        sentPerStage[SCHEDULE.stageAt(intendedNs)]++;
        if ((writtenNs - intendedNs) / 1_000 > RateSummary.LATE_US) {
            late++;
        }
        double second = intendedNs / (double) NS_PER_SECOND;
        boolean reset = second >= 250 && second < 255 && random.nextDouble() < 0.02;
        boolean lost = second >= 480 && second < 483 && random.nextDouble() < 0.003;
        boolean slowPhase = second >= 420 && second < 450;
        if (reset) {
            pending.add(
                    new Pending(
                            writtenNs + 300_000, loopIndex, intendedNs, writtenNs, false, false));
            return;
        }
        if (lost) {
            long timeoutNs = writtenNs + TIMEOUT_MS * 1_000_000L;
            pending.add(new Pending(timeoutNs, loopIndex, intendedNs, writtenNs, false, false));
            return;
        }
        // Log-normal service time around 1.6 ms, slower with the rate, and a 0.3% tail.
        double load = 1 + SCHEDULE.rateAt(intendedNs) / 1_600;
        double serviceUs = 1_600 * load * Math.exp(0.35 * random.nextGaussian());
        if (slowPhase) {
            serviceUs *= 4;
        }
        if (random.nextDouble() < 0.003) {
            serviceUs += 20_000 + random.nextDouble() * 100_000;
        }
        boolean success = random.nextDouble() >= (slowPhase ? 0.02 : 0.004);
        long doneNs = writtenNs + (long) (serviceUs * 1_000);
        pending.add(new Pending(doneNs, loopIndex, intendedNs, writtenNs, true, success));
    }

    private void complete(Pending done, LoopStats loop, PacedStats paced) {
        int index = (int) (done.atNs() / NS_PER_SECOND);
        if (!done.answered()) {
            boolean timedOut = done.atNs() - done.writtenNs() >= TIMEOUT_MS * 1_000_000L;
            ErrorKind kind = timedOut ? ErrorKind.TIMEOUT : ErrorKind.READ;
            loop.recordError(kind, timedOut ? TIMED_OUT : RESET);
            paced.recordError(done.atNs(), kind);
            errorsPerSecond[index]++;
            if (timedOut) {
                timeouts++;
                return;
            }
            readErrors++;
            // The reset connection is let go of and opened again; at first the target refuses.
            loop.connectionClosed();
            if (done.atNs() < 252 * NS_PER_SECOND) {
                loop.recordError(ErrorKind.CONNECT, REFUSED);
                paced.recordError(done.atNs(), ErrorKind.CONNECT);
                connectErrors++;
                errorsPerSecond[index]++;
            }
            loop.recordConnect(180 + random.nextInt(300));
            loop.connectionOpened();
            return;
        }
        long correctedUs = (done.atNs() - done.intendedNs()) / 1_000;
        long uncorrectedUs = (done.atNs() - done.writtenNs()) / 1_000;
        loop.recordBytesRead(RESPONSE_BYTES);
        bytesRead += RESPONSE_BYTES;
        loop.recordResponse(done.success(), false, correctedUs);
        paced.recordResponse(done.intendedNs(), done.success(), correctedUs, uncorrectedUs);
        Histograms.record(latencyUs, correctedUs);
        requests++;
        if (done.success()) {
            successes++;
            successesPerSecond[index]++;
        } else {
            failures++;
            failuresPerSecond[index]++;
        }
    }
}
