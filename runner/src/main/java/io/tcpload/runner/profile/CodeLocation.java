package io.tcpload.runner.profile;

/** Where the response code is looked for: in the response head or in its body. */
public enum CodeLocation {
    HEAD,
    BODY
}
