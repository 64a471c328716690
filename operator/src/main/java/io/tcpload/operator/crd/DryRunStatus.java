package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/**
 * What a dry run ({@code spec.dryRun}) exchanged, bounded: the runner pod hands it over as its
 * termination message, at most 4 KiB of JSON.
 */
public class DryRunStatus {
    @JsonPropertyDescription("The address the runner pod connected to, host:port.")
    private String target;

    @JsonPropertyDescription("The profile's requests, each sent once.")
    private Integer requests;

    @JsonPropertyDescription("Responses judged a success.")
    private Integer successes;

    @JsonPropertyDescription(
            "What is masked in the bytes (** in the hex): values of ENV parameters, the lines of"
                    + " Secret-sourced files and values carried from responses, wherever they"
                    + " appear; empty with spec.dryRunShowValues.")
    private List<String> masked = new ArrayList<>();

    @JsonPropertyDescription(
            "Each request in the order sent, with its response; within 4 KiB, the bytes of every"
                    + " exchange are cut alike first.")
    private List<DryRunExchange> exchanges = new ArrayList<>();

    @JsonPropertyDescription(
            "Exchanges left out at the end, when even their bytes cut did not fit.")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private Integer omitted;

    public String getTarget() {
        return target;
    }

    public void setTarget(String target) {
        this.target = target;
    }

    public Integer getRequests() {
        return requests;
    }

    public void setRequests(Integer requests) {
        this.requests = requests;
    }

    public Integer getSuccesses() {
        return successes;
    }

    public void setSuccesses(Integer successes) {
        this.successes = successes;
    }

    public List<String> getMasked() {
        return masked;
    }

    public void setMasked(List<String> masked) {
        this.masked = masked;
    }

    public List<DryRunExchange> getExchanges() {
        return exchanges;
    }

    public void setExchanges(List<DryRunExchange> exchanges) {
        this.exchanges = exchanges;
    }

    public Integer getOmitted() {
        return omitted;
    }

    public void setOmitted(Integer omitted) {
        this.omitted = omitted;
    }
}
