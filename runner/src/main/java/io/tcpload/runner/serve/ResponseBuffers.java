package io.tcpload.runner.serve;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The pre-encoded responses of one server, shared by all its connections: each write sends a
 * retained duplicate (own indices, same memory), so serving a request allocates nothing but the
 * duplicate.
 *
 * <p>Thread-safe: the buffers are only read after construction; the counter is a {@link LongAdder}.
 * {@link #release()} must come after the last write.
 */
final class ResponseBuffers {
    private final ByteBuf[] success;
    private final ByteBuf[] failure;
    private final double failureRate;
    private final LongAdder served = new LongAdder();

    ResponseBuffers(ResponseFactory factory, double failureRate) {
        ResponseFactory.Connection[] connections = ResponseFactory.Connection.values();
        this.success = new ByteBuf[connections.length];
        this.failure = new ByteBuf[connections.length];
        for (ResponseFactory.Connection connection : connections) {
            success[connection.ordinal()] = direct(factory.response(true, connection));
            failure[connection.ordinal()] = direct(factory.response(false, connection));
        }
        this.failureRate = failureRate;
    }

    private static ByteBuf direct(byte[] bytes) {
        return Unpooled.directBuffer(bytes.length).writeBytes(bytes);
    }

    /** The next response to send, a failure with probability {@code failureRate}; counted. */
    ByteBuf next(ResponseFactory.Connection connection) {
        boolean fail = failureRate > 0 && ThreadLocalRandom.current().nextDouble() < failureRate;
        served.increment();
        ByteBuf buffer = (fail ? failure : success)[connection.ordinal()];
        // A retained duplicate: the channel releases it after writing, the original stays.
        return buffer.retainedDuplicate();
    }

    /** Counts a response written by another path (answers built per request). */
    void countServed() {
        served.increment();
    }

    long served() {
        return served.sum();
    }

    void release() {
        for (ByteBuf buffer : success) {
            buffer.release();
        }
        for (ByteBuf buffer : failure) {
            buffer.release();
        }
    }
}
