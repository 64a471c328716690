package io.tcpload.runner.serve;

import io.netty.channel.EventLoop;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The held-back responses of one event loop, written in the order their requests arrived, from one
 * timer.
 *
 * <p>Why one queue a loop and not a timer a response: when a stall ends, every response held during
 * it falls due at the same instant. Timers scheduled a few microseconds apart fire in an order that
 * has nothing to do with the requests', so the oldest request could be answered last, tens of
 * milliseconds after the stall, and the target would stall longer than it says. Due times never
 * decrease in arrival order ({@link ResponseTiming#waitNs} is a delay or the end of the current
 * stall), so a FIFO queue is also a queue by due time.
 *
 * <p>Threading: confined to its event loop.
 */
final class DueResponses implements Runnable {
    /** The connection a held response goes out on. */
    interface Writer {
        /** Writes a held response without flushing; whether there is something to flush. */
        boolean writeHeld(ResponseFactory.Connection connection);

        /** Flushes what {@link #writeHeld} wrote. */
        void flushHeld();
    }

    private record Held(Writer writer, ResponseFactory.Connection connection, long dueNs) {}

    private final EventLoop loop;
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long armedForNs = Long.MAX_VALUE;

    DueResponses(EventLoop loop) {
        this.loop = loop;
    }

    /** Holds a response for {@code writer} until {@code atNs}, behind every one held before. */
    void hold(Writer writer, ResponseFactory.Connection connection, long atNs) {
        Held last = held.peekLast();
        long dueNs = last == null ? atNs : Math.max(atNs, last.dueNs());
        held.addLast(new Held(writer, connection, dueNs));
        if (last == null) {
            arm(dueNs, System.nanoTime());
        }
    }

    /**
     * The timer: writes every response now due, oldest first, each flushed before the next one is
     * written (so the oldest leaves first, not after the whole batch has been written), except that
     * a connection's answers due one after another go out in one send.
     */
    @Override
    public void run() {
        armedForNs = Long.MAX_VALUE;
        long nowNs = System.nanoTime();
        Held next = held.peekFirst();
        while (next != null && next.dueNs() <= nowNs) {
            held.pollFirst();
            boolean written = next.writer().writeHeld(next.connection());
            Held after = held.peekFirst();
            if (written
                    && (after == null
                            || after.dueNs() > nowNs
                            || after.writer() != next.writer())) {
                next.writer().flushHeld();
            }
            next = after;
        }
        if (next != null) {
            arm(next.dueNs(), nowNs);
        }
    }

    private void arm(long atNs, long nowNs) {
        if (armedForNs <= atNs) {
            return;
        }
        armedForNs = atNs;
        loop.schedule(this, Math.max(0, atNs - nowNs), TimeUnit.NANOSECONDS);
    }
}
