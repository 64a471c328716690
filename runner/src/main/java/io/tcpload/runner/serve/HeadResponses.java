package io.tcpload.runner.serve;

import io.netty.buffer.ByteBuf;

/**
 * Answers to HEAD requests: the head of the response a GET would have had, {@code Content-Length}
 * included, and no body (RFC 9110 9.3.2). Pure.
 */
final class HeadResponses {
    private HeadResponses() {}

    /** Whether the raw bytes of an HTTP request start with the HEAD method. */
    static boolean isHead(byte[] request) {
        return request.length > 5
                && request[0] == 'H'
                && request[1] == 'E'
                && request[2] == 'A'
                && request[3] == 'D'
                && request[4] == ' ';
    }

    /** Cuts {@code response} after its blank line; a response without one is left whole. */
    static ByteBuf dropBody(ByteBuf response) {
        int end = response.writerIndex();
        for (int i = response.readerIndex(); i + 3 < end; i++) {
            if (response.getByte(i) == '\r'
                    && response.getByte(i + 1) == '\n'
                    && response.getByte(i + 2) == '\r'
                    && response.getByte(i + 3) == '\n') {
                return response.writerIndex(i + 4);
            }
        }
        return response;
    }
}
