package io.tcpload.runner.profile;

/** How the response code is found: a fixed byte range, an XML element, or a JSON string value. */
public enum CodeType {
    FIXED,
    XML,
    JSON
}
