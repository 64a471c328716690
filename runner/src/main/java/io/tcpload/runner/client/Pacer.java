package io.tcpload.runner.client;

import io.tcpload.runner.rate.FireTimes;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.stats.PacedStats;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Rate mode for one event loop: hands each send of the loop's share of the schedule to a connection
 * that can take it, at its fire time.
 *
 * <p>Sends are never queued: the ones that are due but found no free connection stay in the {@link
 * FireTimes} sequence, whose next value is the intended time of the oldest, so a long stall costs
 * no memory and each waiting send keeps its intended time. The next connection to free up takes it
 * at once. A timer on the loop is armed for the next fire time; nothing sleeps.
 *
 * <p>Threading: confined to its event loop.
 */
final class Pacer implements Runnable {
    private final LoopWorker worker;
    private FireTimes fireTimes;
    private PacedStats stats;
    private final ArrayDeque<ConnectionSlot> ready = new ArrayDeque<>();

    private long startNs;
    private boolean started;

    /** When the armed timer fires, or {@code Long.MAX_VALUE} when none is armed. */
    private long timerAtNs = Long.MAX_VALUE;

    Pacer(LoopWorker worker, FireTimes fireTimes, PacedStats stats) {
        this.worker = worker;
        this.fireTimes = fireTimes;
        this.stats = stats;
    }

    void start(long runStartNs) {
        this.startNs = runStartNs;
        this.started = true;
        dispatch();
    }

    /** After a warm-up: the schedule starts again at {@code runStartNs}, with fresh figures. */
    void restart(long runStartNs, FireTimes freshFireTimes, PacedStats freshStats) {
        this.fireTimes = freshFireTimes;
        this.stats = freshStats;
        start(runStartNs);
    }

    /** The run's start, from which intended times are counted. */
    long startNs() {
        return startNs;
    }

    PacedStats stats() {
        return stats;
    }

    /** {@code slot} can take a send: it gets one now if one is due, else it waits its turn. */
    void offer(ConnectionSlot slot) {
        if (!slot.queued) {
            slot.queued = true;
            ready.addLast(slot);
        }
        dispatch();
    }

    /** The timer: the next fire time has come. */
    @Override
    public void run() {
        timerAtNs = Long.MAX_VALUE;
        dispatch();
    }

    private void dispatch() {
        if (!started || !worker.running()) {
            return;
        }
        long nowNs = System.nanoTime();
        for (; ; ) {
            long fireNs = fireTimes.peek();
            if (fireNs == RateSchedule.END) {
                return;
            }
            long dueNs = startNs + fireNs;
            if (dueNs > nowNs) {
                arm(dueNs, nowNs);
                return;
            }
            ConnectionSlot slot = ready.peekFirst();
            if (slot == null) {
                return; // the next connection to free up takes the oldest due send
            }
            if (slot.canSend()) {
                fireTimes.next();
                slot.sendAt(dueNs);
            }
            if (!slot.canSend()) {
                ready.pollFirst();
                slot.queued = false;
            }
        }
    }

    private void arm(long dueNs, long nowNs) {
        if (timerAtNs <= dueNs) {
            return; // an earlier timer will look again
        }
        timerAtNs = dueNs;
        worker.loop().schedule(this, dueNs - nowNs, TimeUnit.NANOSECONDS);
    }
}
