package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.PrinterColumn;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What happened: the phase, conditions, the merged result and each runner's state. */
public class TcpLoadTestStatus {
    /** Condition: the profile and the spec passed validation. */
    public static final String PROFILE_VALID = "ProfileValid";

    /** Condition: every runner pod is ready to start. */
    public static final String RUNNERS_READY = "RunnersReady";

    /** Condition: the load ran to its end and every runner reported. */
    public static final String COMPLETED = "Completed";

    /** Condition: every threshold held. */
    public static final String THRESHOLDS_MET = "ThresholdsMet";

    /** Condition: the spec is the one the test runs; False after a change made once it started. */
    public static final String SPEC_ACCEPTED = "SpecAccepted";

    @PrinterColumn(name = "Phase", priority = 0)
    @JsonPropertyDescription("Pending, Starting, Running, Succeeded or Failed.")
    private Phase phase;

    @JsonPropertyDescription(
            "ProfileValid, RunnersReady, Completed, ThresholdsMet and SpecAccepted, each with a"
                    + " reason and a message.")
    private List<Condition> conditions = new ArrayList<>();

    @JsonPropertyDescription(
            "The metadata.generation the test runs; later changes are refused (see the"
                    + " SpecAccepted condition).")
    private Long observedGeneration;

    @JsonPropertyDescription(
            "The instant every runner was told to start its load, in milliseconds since the"
                    + " epoch.")
    private Long startAtMs;

    @JsonPropertyDescription("When the load started (RFC 3339).")
    private String startTime;

    @JsonPropertyDescription("When the test finished (RFC 3339).")
    private String completionTime;

    @JsonPropertyDescription("One sentence on the current state or on why the test failed.")
    private String message;

    @JsonPropertyDescription("The result merged over all runners, with exact percentiles.")
    private ResultSummary summary;

    @JsonPropertyDescription(
            "A dry run's exchange (spec.dryRun): each request and its response, bytes as hex.")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private DryRunStatus dryRun;

    @JsonPropertyDescription(
            "A capacity search's answer (spec.search): the rate found, how the search ended, its"
                    + " confirmation step and every step.")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private CapacityStatus capacity;

    public CapacityStatus getCapacity() {
        return capacity;
    }

    public void setCapacity(CapacityStatus capacity) {
        this.capacity = capacity;
    }

    public DryRunStatus getDryRun() {
        return dryRun;
    }

    public void setDryRun(DryRunStatus dryRun) {
        this.dryRun = dryRun;
    }

    @JsonPropertyDescription(
            "Each runner pod's state and result. Past 100 runners, only the runners with something"
                    + " to say (a message, a partial result, a phase other than Running or"
                    + " Succeeded), at most 100, and the unreachable ones; the others are counted"
                    + " in runnersOmitted.")
    private List<RunnerStatus> runners = new ArrayList<>();

    @JsonPropertyDescription(
            "Runners left out of runners to keep the status small (past 100 runners); their"
                    + " figures are in the summary.")
    private Integer runnersOmitted;

    @JsonPropertyDescription("The runners left out of runners, counted by their pods' phase.")
    private Map<String, Integer> omittedRunnersByPhase;

    @JsonPropertyDescription(
            "Milliseconds between the first and the last runner starting its load, on the"
                    + " operator's clock: each runner's own start corrected by its clock offset.")
    private Long startSkewMs;

    @JsonPropertyDescription(
            "The largest offset of a runner's clock from the operator's, in milliseconds, as the"
                    + " operator estimated it from its round trips to the runners; the start"
                    + " instant is corrected by each runner's.")
    private Double maxClockOffsetMs;

    public Phase getPhase() {
        return phase;
    }

    public void setPhase(Phase phase) {
        this.phase = phase;
    }

    public List<Condition> getConditions() {
        return conditions;
    }

    public void setConditions(List<Condition> conditions) {
        this.conditions = conditions;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public Long getStartAtMs() {
        return startAtMs;
    }

    public void setStartAtMs(Long startAtMs) {
        this.startAtMs = startAtMs;
    }

    public String getStartTime() {
        return startTime;
    }

    public void setStartTime(String startTime) {
        this.startTime = startTime;
    }

    public String getCompletionTime() {
        return completionTime;
    }

    public void setCompletionTime(String completionTime) {
        this.completionTime = completionTime;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public ResultSummary getSummary() {
        return summary;
    }

    public void setSummary(ResultSummary summary) {
        this.summary = summary;
    }

    public List<RunnerStatus> getRunners() {
        return runners;
    }

    public void setRunners(List<RunnerStatus> runners) {
        this.runners = runners;
    }

    public Integer getRunnersOmitted() {
        return runnersOmitted;
    }

    public void setRunnersOmitted(Integer runnersOmitted) {
        this.runnersOmitted = runnersOmitted;
    }

    public Map<String, Integer> getOmittedRunnersByPhase() {
        return omittedRunnersByPhase;
    }

    public void setOmittedRunnersByPhase(Map<String, Integer> omittedRunnersByPhase) {
        this.omittedRunnersByPhase = omittedRunnersByPhase;
    }

    public Double getMaxClockOffsetMs() {
        return maxClockOffsetMs;
    }

    public void setMaxClockOffsetMs(Double maxClockOffsetMs) {
        this.maxClockOffsetMs = maxClockOffsetMs;
    }

    public Long getStartSkewMs() {
        return startSkewMs;
    }

    public void setStartSkewMs(Long startSkewMs) {
        this.startSkewMs = startSkewMs;
    }
}
