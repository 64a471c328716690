package io.tcpload.operator.status;

/**
 * An event to record on the test.
 *
 * @param reason one of the fixed reasons
 * @param message one sentence
 */
public record Event(EventReason reason, String message) {}
