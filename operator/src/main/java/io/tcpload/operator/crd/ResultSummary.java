package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.generator.annotation.Size;
import io.tcpload.runner.contract.RunnerLimits;
import java.util.List;

/** Every figure of the runner's report, merged over all runners. */
public class ResultSummary {
    @JsonPropertyDescription(
            "Which runners the figures cover, when not every runner's whole run: for example '3 of"
                    + " 4 runners; runner 2 OOMKilled at 41 s, lost'. Absent for a complete result.")
    private String coverage;

    public String getCoverage() {
        return coverage;
    }

    public void setCoverage(String coverage) {
        this.coverage = coverage;
    }

    @JsonPropertyDescription("Wall time of the load, in milliseconds (the longest runner's).")
    private Long runtimeMs;

    @JsonPropertyDescription("Complete responses: successes plus failures.")
    private Long requests;

    @JsonPropertyDescription("Responses judged successful.")
    private Long successes;

    @JsonPropertyDescription("Complete responses judged failed (wrong code or HTTP status).")
    private Long failures;

    @JsonPropertyDescription("Socket-level errors by kind.")
    private ErrorCounts errors;

    @JsonPropertyDescription("HTTP responses whose status was not 2xx or 3xx (0 outside HTTP).")
    private Long non2xx3xx;

    @JsonPropertyDescription("Bytes received.")
    private Long bytesRead;

    @JsonPropertyDescription("Bytes sent.")
    private Long bytesWritten;

    @PrinterColumn(name = "TPS")
    @JsonPropertyDescription("Complete responses per second.")
    private Double tps;

    @JsonPropertyDescription("Successful responses per second.")
    private Double successTps;

    @JsonPropertyDescription("Failed responses per second.")
    private Double failureTps;

    @PrinterColumn(name = "Success%")
    @JsonPropertyDescription(
            "Successful responses as a percentage of complete responses plus socket errors.")
    private Double successPercent;

    @JsonPropertyDescription("Successes / (requests + socket errors), from 0 to 1.")
    private Double successRatio;

    @JsonPropertyDescription("(Failures + socket errors) / (requests + socket errors), 0 to 1.")
    private Double errorRatio;

    @JsonPropertyDescription(
            "Response latency, from the first byte written to the complete response.")
    private LatencySummary latency;

    @JsonPropertyDescription("99th percentile of TCP connect time, in milliseconds.")
    private Double connectP99Ms;

    @JsonPropertyDescription(
            "99th percentile of TLS handshake time (from the connect to the handshake's end), in"
                    + " milliseconds; absent without TLS.")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Double tlsHandshakeP99Ms;

    @JsonPropertyDescription(
            "A transaction mix's requests, one row per [request.NAME] in the profile's order (at"
                    + " most 32), merged over all runners exactly as the totals are; their"
                    + " requests, successes and failures add up to the summary's. Absent for a"
                    + " profile of one [request].")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @Size(max = RunnerLimits.REQUEST_NAMES_MAX)
    private List<RequestSummary> byRequest;

    public List<RequestSummary> getByRequest() {
        return byRequest;
    }

    public void setByRequest(List<RequestSummary> byRequest) {
        this.byRequest = byRequest;
    }

    public Double getTlsHandshakeP99Ms() {
        return tlsHandshakeP99Ms;
    }

    public void setTlsHandshakeP99Ms(Double tlsHandshakeP99Ms) {
        this.tlsHandshakeP99Ms = tlsHandshakeP99Ms;
    }

    public Long getRuntimeMs() {
        return runtimeMs;
    }

    public void setRuntimeMs(Long runtimeMs) {
        this.runtimeMs = runtimeMs;
    }

    public Long getRequests() {
        return requests;
    }

    public void setRequests(Long requests) {
        this.requests = requests;
    }

    public Long getSuccesses() {
        return successes;
    }

    public void setSuccesses(Long successes) {
        this.successes = successes;
    }

    public Long getFailures() {
        return failures;
    }

    public void setFailures(Long failures) {
        this.failures = failures;
    }

    public ErrorCounts getErrors() {
        return errors;
    }

    public void setErrors(ErrorCounts errors) {
        this.errors = errors;
    }

    public Long getNon2xx3xx() {
        return non2xx3xx;
    }

    public void setNon2xx3xx(Long non2xx3xx) {
        this.non2xx3xx = non2xx3xx;
    }

    public Long getBytesRead() {
        return bytesRead;
    }

    public void setBytesRead(Long bytesRead) {
        this.bytesRead = bytesRead;
    }

    public Long getBytesWritten() {
        return bytesWritten;
    }

    public void setBytesWritten(Long bytesWritten) {
        this.bytesWritten = bytesWritten;
    }

    public Double getTps() {
        return tps;
    }

    public void setTps(Double tps) {
        this.tps = tps;
    }

    public Double getSuccessTps() {
        return successTps;
    }

    public void setSuccessTps(Double successTps) {
        this.successTps = successTps;
    }

    public Double getFailureTps() {
        return failureTps;
    }

    public void setFailureTps(Double failureTps) {
        this.failureTps = failureTps;
    }

    public Double getSuccessPercent() {
        return successPercent;
    }

    public void setSuccessPercent(Double successPercent) {
        this.successPercent = successPercent;
    }

    public Double getSuccessRatio() {
        return successRatio;
    }

    public void setSuccessRatio(Double successRatio) {
        this.successRatio = successRatio;
    }

    public Double getErrorRatio() {
        return errorRatio;
    }

    public void setErrorRatio(Double errorRatio) {
        this.errorRatio = errorRatio;
    }

    public LatencySummary getLatency() {
        return latency;
    }

    public void setLatency(LatencySummary latency) {
        this.latency = latency;
    }

    public Double getConnectP99Ms() {
        return connectP99Ms;
    }

    public void setConnectP99Ms(Double connectP99Ms) {
        this.connectP99Ms = connectP99Ms;
    }
}
