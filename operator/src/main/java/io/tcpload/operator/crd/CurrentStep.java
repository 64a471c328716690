package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;

/**
 * The step of a capacity search told to the runners and not yet judged: recorded before any runner
 * hears of it, so that an operator restarted in between tells the same step at the same instant.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CurrentStep {
    @PrinterColumn(name = "Step", priority = 1)
    @JsonPropertyDescription("The step's number, from 1.")
    private Integer number;

    @JsonPropertyDescription("grow, bisect or confirm.")
    private String kind;

    @PrinterColumn(name = "StepRate", priority = 1)
    @JsonPropertyDescription("The rate asked, requests per second for the whole test.")
    private Double targetRate;

    @JsonPropertyDescription(
            "When the step begins (its warm-up first), epoch milliseconds on the operator's clock;"
                    + " each runner is told it on its own clock.")
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

    public Long getStartAtMs() {
        return startAtMs;
    }

    public void setStartAtMs(Long startAtMs) {
        this.startAtMs = startAtMs;
    }
}
