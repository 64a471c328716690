package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One runner pod of the test. */
public class RunnerStatus {
    @JsonPropertyDescription("The runner's index, from 0 (the Job completion index).")
    private Integer index;

    @JsonPropertyDescription("Name of the runner pod.")
    private String pod;

    @JsonPropertyDescription("The pod's phase: Pending, Running, Succeeded, Failed or Unknown.")
    private String phase;

    @JsonPropertyDescription("Complete responses this runner received.")
    private Long requests;

    @JsonPropertyDescription("This runner's responses per second.")
    private Double tps;

    @JsonPropertyDescription("When this runner started its load (RFC 3339).")
    private String startTime;

    @JsonPropertyDescription("Why this runner failed, or its last notable event.")
    private String message;

    @JsonPropertyDescription(
            "Since when the operator could not reach this running runner (RFC 3339); past a bound"
                    + " it is declared lost, as a runner on a lost node is.")
    private String unreachableSince;

    @JsonPropertyDescription(
            "Whether this runner's result is partial: stopped early by a signal (its pod deleted,"
                    + " evicted or drained), or lost.")
    private Boolean partial;

    public String getUnreachableSince() {
        return unreachableSince;
    }

    public void setUnreachableSince(String unreachableSince) {
        this.unreachableSince = unreachableSince;
    }

    public Boolean getPartial() {
        return partial;
    }

    public void setPartial(Boolean partial) {
        this.partial = partial;
    }

    public Integer getIndex() {
        return index;
    }

    public void setIndex(Integer index) {
        this.index = index;
    }

    public String getPod() {
        return pod;
    }

    public void setPod(String pod) {
        this.pod = pod;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public Long getRequests() {
        return requests;
    }

    public void setRequests(Long requests) {
        this.requests = requests;
    }

    public Double getTps() {
        return tps;
    }

    public void setTps(Double tps) {
        this.tps = tps;
    }

    public String getStartTime() {
        return startTime;
    }

    public void setStartTime(String startTime) {
        this.startTime = startTime;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }
}
