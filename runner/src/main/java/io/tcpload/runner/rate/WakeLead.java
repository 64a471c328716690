package io.tcpload.runner.rate;

/**
 * How far ahead of a send's fire time an idle event loop sets its timer, so that the send leaves at
 * the fire time, not when the sleeping thread happens to run again.
 *
 * <p>A thread that sleeps through a timer is woken late: by the kernel's timer slack, by the
 * scheduler of a busy machine or a virtual machine's host, and, with Netty's NIO transport, by a
 * selector that waits in whole milliseconds. Then it runs cold code on cold caches to build the
 * request. At a low rate each send pays all of it, 0.5 to 1 ms on a 2-core virtual machine, and
 * that lag is counted in the corrected latency of a service that answers in 0.1 ms. So the loop
 * asks to be woken this lead ahead, builds the request, and waits out what is left of the lead
 * spinning.
 *
 * <p>The lead follows how late the loop turned out to be ready (woken, and the request built) after
 * the instant it asked for, the way TCP estimates its retransmission timeout (RFC 6298): a smoothed
 * mean plus four smoothed mean deviations (at least {@link #MARGIN_NS} more), so that a quiet
 * machine spins briefly and a busy one wakes earlier. It never exceeds {@link #MAX_LEAD_NS}, nor a
 * 25th of the idle time before the fire time, so that the spinning costs at most 4% of a loop's
 * time. A lead under {@link #MIN_LEAD_NS} is none: it would rarely beat a wake-up's own lateness.
 * So from 400 sends a second on a loop (2.5 ms apart) there is no lead and nothing spins: the loop
 * is busy then anyway, and CPU that the target or other loops may need is not spent on waiting.
 *
 * <p>Pure: no clock. Threading: not thread-safe; one owner (an event loop's pacer) calls it.
 */
public final class WakeLead {
    /** The longest lead, and so the longest a loop spins before one send. */
    static final long MAX_LEAD_NS = 2_000_000;

    /**
     * Below this a lead is not worth a spin, being shorter than a wake-up's own lateness on Linux
     * (0.1 ms and more): the timer is set for the fire time itself.
     */
    static final long MIN_LEAD_NS = 100_000;

    /** The lead is at most this fraction of the idle time before the fire time (1/25: 4%). */
    static final int IDLE_SHARE = 25;

    /** The least the lead is above the lateness expected, for a lateness that hardly varies. */
    static final long MARGIN_NS = 50_000;

    /**
     * A sample is taken as at most this late: a stall of the whole process (a pause of the
     * collector) says nothing of the next wake-up, and would keep the lead at its maximum for long.
     */
    static final long MAX_SAMPLE_NS = 2 * MAX_LEAD_NS;

    /** Until the first wake-ups are measured: a lead of 0.5 ms. */
    private long smoothedLateNs = 250_000;

    private long deviationNs = 62_500;

    /**
     * The lead for a fire time {@code idleNs} away, in ns: 0 when the wait is too short to wake
     * ahead of it.
     */
    public long leadNs(long idleNs) {
        long wanted = smoothedLateNs + Math.max(MARGIN_NS, 4 * deviationNs);
        long lead = Math.min(Math.min(wanted, MAX_LEAD_NS), idleNs / IDLE_SHARE);
        return lead < MIN_LEAD_NS ? 0 : lead;
    }

    /**
     * The loop was ready {@code lateNs} after the instant it asked to be woken at (negative values
     * are taken as 0).
     */
    public void record(long lateNs) {
        long sample = Math.max(0, Math.min(lateNs, MAX_SAMPLE_NS));
        long error = sample - smoothedLateNs;
        // RFC 6298's gains: 1/4 for the deviation (updated first, with the old mean), 1/8 for the
        // mean.
        deviationNs += (Math.abs(error) - deviationNs) / 4;
        smoothedLateNs += error / 8;
    }
}
