/**
 * The Netty decoders of a connection's pipeline: each fires one {@link
 * io.tcpload.runner.codec.ResponseOutcome} (or a checked response carrying extracted values) per
 * complete response. {@link io.tcpload.runner.decode.ResponseCodecs#newDecoder} picks the decoder a
 * profile needs. They are thin: framing and judging live in the pure {@code codec} package, and the
 * hot path allocates nothing per response.
 */
package io.tcpload.runner.decode;
