package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * What a capacity search ({@code spec.search}) found: the rate, how the search ended, the
 * confirmation step the rate rests on, and the step table.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacityStatus {
    /**
     * At most this many steps in the status; a search to 2% over a hundredfold range takes 12, and
     * the widest range the CRD takes to the finest precision about 26. In a cluster the search
     * stops at this many (the status holds every step, which it replays to go on).
     */
    public static final int STEPS_MAX = 40;

    @PrinterColumn(name = "Capacity", priority = 1)
    @JsonPropertyDescription(
            "The highest rate that held, its confirmation step included, in requests per second"
                    + " for the whole test; 0 when none did.")
    private Double rate;

    @JsonPropertyDescription(
            "found, range_held (the range's maximum held: the capacity is at least it),"
                    + " minimum_failed, too_few_connections, unconfirmed or stopped.")
    private String end;

    @JsonPropertyDescription("One sentence on how the search ended.")
    private String message;

    @JsonPropertyDescription("The objective, as the runner's --search reads it.")
    private String slo;

    @JsonPropertyDescription("The confirmation step the rate rests on, when one held.")
    private SearchStep confirmation;

    @JsonPropertyDescription("From the first step's start to the last one's end, in milliseconds.")
    private Long wallTimeMs;

    @JsonPropertyDescription(
            "Every step, in order (at most 40: the first ones and the last ones, with stepsOmitted"
                    + " counting those left out).")
    private List<SearchStep> steps = new ArrayList<>();

    @JsonPropertyDescription("Steps left out of steps to keep the status small.")
    private Integer stepsOmitted;

    @JsonPropertyDescription(
            "In a cluster, while the search runs: the step told to the runners and not yet"
                    + " judged.")
    private CurrentStep current;

    public CurrentStep getCurrent() {
        return current;
    }

    public void setCurrent(CurrentStep current) {
        this.current = current;
    }

    public Double getRate() {
        return rate;
    }

    public void setRate(Double rate) {
        this.rate = rate;
    }

    public String getEnd() {
        return end;
    }

    public void setEnd(String end) {
        this.end = end;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public String getSlo() {
        return slo;
    }

    public void setSlo(String slo) {
        this.slo = slo;
    }

    public SearchStep getConfirmation() {
        return confirmation;
    }

    public void setConfirmation(SearchStep confirmation) {
        this.confirmation = confirmation;
    }

    public Long getWallTimeMs() {
        return wallTimeMs;
    }

    public void setWallTimeMs(Long wallTimeMs) {
        this.wallTimeMs = wallTimeMs;
    }

    public List<SearchStep> getSteps() {
        return steps;
    }

    public void setSteps(List<SearchStep> steps) {
        this.steps = steps;
    }

    public Integer getStepsOmitted() {
        return stepsOmitted;
    }

    public void setStepsOmitted(Integer stepsOmitted) {
        this.stepsOmitted = stepsOmitted;
    }
}
