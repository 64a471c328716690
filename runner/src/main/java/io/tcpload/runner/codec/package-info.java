/**
 * Response framing and judging, pure: no channels, only buffers.
 *
 * <p>The decoders of the {@code decode} package fire one {@link
 * io.tcpload.runner.codec.ResponseOutcome} per complete response. They are thin: framing lives in
 * pure parsers ({@code LengthPrefixedFramer} for wrktcp's length-prefixed protocol, {@code
 * HttpResponseFramer} for HTTP/1.1) and judging in {@code CodeJudge}, all reading Netty buffers in
 * place.
 *
 * <p>Two rules shape the code. The hot path allocates nothing per response: outcomes are enum
 * constants, codes are compared byte by byte where they lie, and the only copies (de-chunked or
 * close-delimited HTTP bodies, as much of them as the code check reads; the HTTP head block when
 * the code is in the head) go into buffers reused by the connection. And nothing a peer declares is
 * trusted for sizing: lengths, chunk sizes and header sections are checked against their caps
 * before any byte of them is awaited, and buffers only grow with bytes that actually arrived.
 */
package io.tcpload.runner.codec;
