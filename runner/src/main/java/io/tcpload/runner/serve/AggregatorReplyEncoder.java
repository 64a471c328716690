package io.tcpload.runner.serve;

import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponseEncoder;

/**
 * Encodes only the HTTP response objects that {@code HttpObjectAggregator} writes by itself ({@code
 * 100 Continue}, {@code 413}); the demo server's own responses are pre-encoded bytes and pass
 * through untouched (a plain {@link HttpResponseEncoder} rejects bytes between messages).
 */
final class AggregatorReplyEncoder extends HttpResponseEncoder {
    @Override
    public boolean acceptOutboundMessage(Object msg) throws Exception {
        return msg instanceof HttpObject && super.acceptOutboundMessage(msg);
    }
}
