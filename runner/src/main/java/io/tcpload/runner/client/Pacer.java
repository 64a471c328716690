package io.tcpload.runner.client;

import io.tcpload.runner.rate.FireTimes;
import io.tcpload.runner.rate.RateSchedule;
import io.tcpload.runner.rate.WakeLead;
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
 * <p>When the loop would sit idle until the next fire time, the timer is armed a little ahead of it
 * ({@link WakeLead}): the request of the connection that will take the send is built then, and the
 * loop waits out the rest of the lead spinning, so that the send leaves at its fire time, not when
 * a sleeping thread happens to be woken (a fraction of a millisecond to a millisecond late) and has
 * built the request on cold caches. The lead is bounded, and none is taken under 2.5 ms between
 * sends, so the spinning costs little at low rates and nothing at high ones.
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

    /** How far ahead of its fire time the armed timer fires: the most the loop then spins. */
    private long timerLeadNs;

    private final WakeLead lead = new WakeLead();

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

    /** The timer: the next fire time has come, or comes within the timer's lead. */
    @Override
    public void run() {
        long wakeNs = timerAtNs;
        long leadNs = timerLeadNs;
        timerAtNs = Long.MAX_VALUE;
        timerLeadNs = 0;
        if (leadNs > 0) {
            awaitFireTime(wakeNs, leadNs);
        }
        dispatch();
    }

    /**
     * Woken ahead of the next fire time by a timer set for {@code wakeNs}, {@code leadNs} ahead of
     * it: the connection next in line builds its request now, and the loop spins until the fire
     * time, at most the lead.
     */
    private void awaitFireTime(long wakeNs, long leadNs) {
        if (!started || !worker.running()) {
            return;
        }
        long fireNs = fireTimes.peek();
        if (fireNs == RateSchedule.END) {
            return;
        }
        long dueNs = startNs + fireNs;
        long nowNs = System.nanoTime();
        if (nowNs < wakeNs || dueNs - nowNs > leadNs) {
            // Not the timer of this fire time (one superseded, or the schedule began again): the
            // dispatch arms the right one.
            return;
        }
        ConnectionSlot slot = ready.peekFirst();
        boolean sending = slot != null && slot.canSend();
        if (sending && nowNs < dueNs) {
            slot.prepare();
            nowNs = System.nanoTime();
        }
        lead.record(nowNs - wakeNs);
        // With no connection free, the send waits for one anyway: no reason to spin.
        while (sending && nowNs < dueNs) {
            Thread.onSpinWait();
            nowNs = System.nanoTime();
        }
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
        long leadNs = lead.leadNs(dueNs - nowNs);
        long wakeNs = dueNs - leadNs;
        if (timerAtNs <= wakeNs) {
            return; // an earlier timer will look again
        }
        timerAtNs = wakeNs;
        timerLeadNs = leadNs;
        worker.loop().schedule(this, wakeNs - nowNs, TimeUnit.NANOSECONDS);
    }
}
