package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** One request of a dry run and its response, as the runner pod saw them. */
public class DryRunExchange {
    @JsonPropertyDescription("The request's name: its [request.NAME], or 'request'.")
    private String name;

    @JsonPropertyDescription("success or failure, as the profile judges the response.")
    private String verdict;

    @JsonPropertyDescription("The request's length in bytes; 0 when it could not be built.")
    private Integer requestBytes;

    @JsonPropertyDescription(
            "The request's bytes as hex, two digits a byte, ** for a masked byte; shorter than"
                    + " twice requestBytes when cut to fit the bound.")
    private String request;

    @JsonPropertyDescription("The response's length in bytes; 0 when none came.")
    private Integer responseBytes;

    @JsonPropertyDescription("The response's bytes as hex, as request.")
    private String response;

    @JsonPropertyDescription(
            "How the response was framed: head, length field and its value, body (HTTP: status,"
                    + " header lines, body).")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private String framing;

    @JsonPropertyDescription("The code found by the profile's rule.")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private String code;

    @JsonPropertyDescription(
            "Why no response was judged: a timeout, a refused connect, bytes that cannot be"
                    + " framed, a request not built.")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private String error;

    @JsonPropertyDescription(
            "The values the response handed the connection (rsp_extract), which later requests"
                    + " send; masked unless spec.dryRunShowValues.")
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    private List<DryRunValue> extracted = new ArrayList<>();

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getVerdict() {
        return verdict;
    }

    public void setVerdict(String verdict) {
        this.verdict = verdict;
    }

    public Integer getRequestBytes() {
        return requestBytes;
    }

    public void setRequestBytes(Integer requestBytes) {
        this.requestBytes = requestBytes;
    }

    public String getRequest() {
        return request;
    }

    public void setRequest(String request) {
        this.request = request;
    }

    public Integer getResponseBytes() {
        return responseBytes;
    }

    public void setResponseBytes(Integer responseBytes) {
        this.responseBytes = responseBytes;
    }

    public String getResponse() {
        return response;
    }

    public void setResponse(String response) {
        this.response = response;
    }

    public String getFraming() {
        return framing;
    }

    public void setFraming(String framing) {
        this.framing = framing;
    }

    public String getCode() {
        return code;
    }

    public void setCode(String code) {
        this.code = code;
    }

    public String getError() {
        return error;
    }

    public void setError(String error) {
        this.error = error;
    }

    public List<DryRunValue> getExtracted() {
        return extracted;
    }

    public void setExtracted(List<DryRunValue> extracted) {
        this.extracted = extracted;
    }
}
