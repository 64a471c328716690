package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** Socket-level errors by kind, as the runner's {@code Socket errors} line. */
public class ErrorCounts {
    @JsonPropertyDescription("Connects refused or failed.")
    private Long connect;

    @JsonPropertyDescription("Bad responses: framing errors, oversize, EOF before a full response.")
    private Long read;

    @JsonPropertyDescription("Requests that could not be built or written.")
    private Long write;

    @JsonPropertyDescription("Connects, TLS handshakes or responses slower than the timeout.")
    private Long timeout;

    @JsonPropertyDescription(
            "TLS handshakes that failed: a certificate refused by either side, no protocol or"
                    + " cipher in common, a server that does not speak TLS.")
    private Long tls;

    public Long getTls() {
        return tls;
    }

    public void setTls(Long tls) {
        this.tls = tls;
    }

    public Long getConnect() {
        return connect;
    }

    public void setConnect(Long connect) {
        this.connect = connect;
    }

    public Long getRead() {
        return read;
    }

    public void setRead(Long read) {
        this.read = read;
    }

    public Long getWrite() {
        return write;
    }

    public void setWrite(Long write) {
        this.write = write;
    }

    public Long getTimeout() {
        return timeout;
    }

    public void setTimeout(Long timeout) {
        this.timeout = timeout;
    }
}
