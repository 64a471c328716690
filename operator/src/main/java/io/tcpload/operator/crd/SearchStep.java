package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** One step of a capacity search, every runner's results merged: what was asked and measured. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SearchStep {
    @JsonPropertyDescription("The step's number, from 1.")
    private Integer number;

    @JsonPropertyDescription("grow, bisect or confirm.")
    private String kind;

    @JsonPropertyDescription("The rate asked, requests per second for the whole test.")
    private Double targetRate;

    @JsonPropertyDescription("Complete responses per second over the step.")
    private Double achievedRate;

    @JsonPropertyDescription("The step's mean latency, in milliseconds.")
    private Double meanMs;

    @JsonPropertyDescription("The step's p50 latency, in milliseconds.")
    private Double p50Ms;

    @JsonPropertyDescription("The step's p90 latency, in milliseconds.")
    private Double p90Ms;

    @JsonPropertyDescription("The step's p99 latency, in milliseconds.")
    private Double p99Ms;

    @JsonPropertyDescription("The step's p99.9 latency, in milliseconds.")
    private Double p999Ms;

    @JsonPropertyDescription("Socket errors and failure responses in the step.")
    private Long errors;

    @JsonPropertyDescription(
            "Requests asked for and not yet answered in the middle of the step (the least at the"
                    + " end of any second of its first half).")
    private Long backlogAtMid;

    @JsonPropertyDescription("Requests asked for and not yet answered at the end of the step.")
    private Long backlogAtEnd;

    @JsonPropertyDescription("Whether the step held its rate within the objective.")
    private Boolean held;

    @JsonPropertyDescription("Why it did not, each a sentence.")
    private List<String> reasons = new ArrayList<>();

    @JsonPropertyDescription(
            "When the step began (its warm-up first), epoch milliseconds on the operator's clock;"
                    + " in a cluster only.")
    private Long startAtMs;

    public Integer getNumber() {
        return number;
    }

    public void setNumber(Integer number) {
        this.number = number;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public Double getTargetRate() {
        return targetRate;
    }

    public void setTargetRate(Double targetRate) {
        this.targetRate = targetRate;
    }

    public Double getAchievedRate() {
        return achievedRate;
    }

    public void setAchievedRate(Double achievedRate) {
        this.achievedRate = achievedRate;
    }

    public Double getMeanMs() {
        return meanMs;
    }

    public void setMeanMs(Double meanMs) {
        this.meanMs = meanMs;
    }

    public Long getStartAtMs() {
        return startAtMs;
    }

    public void setStartAtMs(Long startAtMs) {
        this.startAtMs = startAtMs;
    }

    public Double getP50Ms() {
        return p50Ms;
    }

    public void setP50Ms(Double p50Ms) {
        this.p50Ms = p50Ms;
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

    public Long getErrors() {
        return errors;
    }

    public void setErrors(Long errors) {
        this.errors = errors;
    }

    public Long getBacklogAtMid() {
        return backlogAtMid;
    }

    public void setBacklogAtMid(Long backlogAtMid) {
        this.backlogAtMid = backlogAtMid;
    }

    public Long getBacklogAtEnd() {
        return backlogAtEnd;
    }

    public void setBacklogAtEnd(Long backlogAtEnd) {
        this.backlogAtEnd = backlogAtEnd;
    }

    public Boolean getHeld() {
        return held;
    }

    public void setHeld(Boolean held) {
        this.held = held;
    }

    public List<String> getReasons() {
        return reasons;
    }

    public void setReasons(List<String> reasons) {
        this.reasons = reasons;
    }
}
