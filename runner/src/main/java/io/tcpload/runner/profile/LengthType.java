package io.tcpload.runner.profile;

/** What a length field counts: the body bytes only, or the whole message (head and body). */
public enum LengthType {
    BODY,
    TOTAL
}
