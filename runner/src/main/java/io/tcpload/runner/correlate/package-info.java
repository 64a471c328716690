/**
 * Values carried from responses to later requests, pure: {@link
 * io.tcpload.runner.correlate.ValueFinder} finds a value in a response by fixed place, XML tag,
 * JSON key or a bounded regular expression; {@link io.tcpload.runner.correlate.ResponseValues}
 * applies a response rule's extractions and echo checks; {@link
 * io.tcpload.runner.correlate.Variables} holds one connection's values.
 */
package io.tcpload.runner.correlate;
