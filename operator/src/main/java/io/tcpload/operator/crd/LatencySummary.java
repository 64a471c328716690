package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;

/** A latency distribution in milliseconds, from the merged histogram of every runner. */
public class LatencySummary {
    @JsonPropertyDescription("Mean, in milliseconds.")
    private Double meanMs;

    @JsonPropertyDescription("Standard deviation, in milliseconds.")
    private Double stdevMs;

    @JsonPropertyDescription("Maximum, in milliseconds.")
    private Double maxMs;

    @JsonPropertyDescription("Median, in milliseconds.")
    private Double p50Ms;

    @JsonPropertyDescription("75th percentile, in milliseconds.")
    private Double p75Ms;

    @JsonPropertyDescription("90th percentile, in milliseconds.")
    private Double p90Ms;

    @PrinterColumn(name = "P99")
    @JsonPropertyDescription("99th percentile, in milliseconds.")
    private Double p99Ms;

    @JsonPropertyDescription("99.9th percentile, in milliseconds.")
    private Double p999Ms;

    @JsonPropertyDescription("99.99th percentile, in milliseconds.")
    private Double p9999Ms;

    public Double getMeanMs() {
        return meanMs;
    }

    public void setMeanMs(Double meanMs) {
        this.meanMs = meanMs;
    }

    public Double getStdevMs() {
        return stdevMs;
    }

    public void setStdevMs(Double stdevMs) {
        this.stdevMs = stdevMs;
    }

    public Double getMaxMs() {
        return maxMs;
    }

    public void setMaxMs(Double maxMs) {
        this.maxMs = maxMs;
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
}
