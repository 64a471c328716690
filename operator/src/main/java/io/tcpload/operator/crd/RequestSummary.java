package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * One named request of a transaction mix ({@code [request.NAME]}), merged over all runners from
 * their per-request histograms, as exact as the summary's own figures. Flat, so that {@code kubectl
 * get -o custom-columns} reaches every figure, and without the summary's printer column.
 */
public class RequestSummary {
    @JsonPropertyDescription("The request's name: its [request.NAME] section.")
    private String name;

    @JsonPropertyDescription("Complete responses to it: successes plus failures.")
    private Long requests;

    @JsonPropertyDescription("Its responses judged successful.")
    private Long successes;

    @JsonPropertyDescription("Its complete responses judged failed (wrong code or HTTP status).")
    private Long failures;

    @JsonPropertyDescription("Its complete responses per second.")
    private Double tps;

    @JsonPropertyDescription(
            "Successes / requests of this name, from 0 to 1 (socket errors belong to no name).")
    private Double successRatio;

    @JsonPropertyDescription("Failures / requests of this name, from 0 to 1.")
    private Double errorRatio;

    @JsonPropertyDescription("Median of its latency, in milliseconds.")
    private Double p50Ms;

    @JsonPropertyDescription("75th percentile of its latency, in milliseconds.")
    private Double p75Ms;

    @JsonPropertyDescription("90th percentile of its latency, in milliseconds.")
    private Double p90Ms;

    @JsonPropertyDescription("99th percentile of its latency, in milliseconds.")
    private Double p99Ms;

    @JsonPropertyDescription("99.9th percentile of its latency, in milliseconds.")
    private Double p999Ms;

    @JsonPropertyDescription("99.99th percentile of its latency, in milliseconds.")
    private Double p9999Ms;

    @JsonPropertyDescription("Mean of its latency, in milliseconds.")
    private Double meanMs;

    @JsonPropertyDescription("Maximum of its latency, in milliseconds.")
    private Double maxMs;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
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

    public Double getTps() {
        return tps;
    }

    public void setTps(Double tps) {
        this.tps = tps;
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

    public Double getP50Ms() {
        return p50Ms;
    }

    public void setP50Ms(Double p50Ms) {
        this.p50Ms = p50Ms;
    }

    public Double getP75Ms() {
        return p75Ms;
    }

    public void setP75Ms(Double p75Ms) {
        this.p75Ms = p75Ms;
    }

    public Double getP90Ms() {
        return p90Ms;
    }

    public void setP90Ms(Double p90Ms) {
        this.p90Ms = p90Ms;
    }

    public Double getP99Ms() {
        return p99Ms;
    }

    public void setP99Ms(Double p99Ms) {
        this.p99Ms = p99Ms;
    }

    public Double getP999Ms() {
        return p999Ms;
    }

    public void setP999Ms(Double p999Ms) {
        this.p999Ms = p999Ms;
    }

    public Double getP9999Ms() {
        return p9999Ms;
    }

    public void setP9999Ms(Double p9999Ms) {
        this.p9999Ms = p9999Ms;
    }

    public Double getMeanMs() {
        return meanMs;
    }

    public void setMeanMs(Double meanMs) {
        this.meanMs = meanMs;
    }

    public Double getMaxMs() {
        return maxMs;
    }

    public void setMaxMs(Double maxMs) {
        this.maxMs = maxMs;
    }
}
