package io.tcpload.runner.client;

/**
 * Which bytes of one connection's stream the measured run counts as read: all but those of the
 * responses to warm-up requests, which the rule of requests and latencies leaves out too (a request
 * belongs to the warm-up by its intended send time). Such a response may arrive after the warm-up
 * has ended, whole or in part, and with a pipeline in one read with the response of a measured
 * request behind it; its bytes are held back until its end is known, then dropped, and the bytes
 * behind it are counted. Pure: the connection tells it the offsets of its byte stream.
 *
 * <p>Responses come in the order of their requests, so the warm-up's are the first of the stream
 * after the warm-up's end: once the oldest request in flight is measured, every byte that follows
 * is too.
 *
 * <p>Threading: confined to its connection's event loop.
 */
final class MeasuredBytes {
    /**
     * Where the bytes already counted or dropped end in the stream; the bytes after it wait for the
     * end of a warm-up response.
     */
    private long settledTo;

    /** A new connection: its stream begins again at 0. */
    void reset() {
        settledTo = 0;
    }

    /**
     * The stream has reached {@code receivedTo} bytes.
     *
     * @param answeringWarmup whether the oldest request in flight, which the bytes not yet settled
     *     begin to answer, is a warm-up request
     * @return how many bytes to count as read now: none while a warm-up response may still be
     *     arriving
     */
    long received(long receivedTo, boolean answeringWarmup) {
        if (answeringWarmup || receivedTo <= settledTo) {
            return 0;
        }
        long count = receivedTo - settledTo;
        settledTo = receivedTo;
        return count;
    }

    /**
     * The response of a warm-up request ended at {@code endOffset} of the stream: its bytes, as far
     * as they were not counted before the warm-up ended (into figures that were dropped), are
     * dropped. Call {@link #received} next, for the bytes behind it.
     */
    void warmupAnswered(long endOffset) {
        settledTo = Math.max(settledTo, endOffset);
    }
}
