package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** A value a dry run's response handed the connection ({@code rsp_extract}), as later sent. */
public class DryRunValue {
    @JsonPropertyDescription("The variable, $(NAME) in the profile's requests.")
    private String name;

    @JsonPropertyDescription("The value's length in bytes.")
    private Integer bytes;

    @JsonPropertyDescription(
            "The value as hex, two digits a byte, ** for each masked byte (masked unless"
                    + " spec.dryRunShowValues); cut as the request's bytes are.")
    private String value;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Integer getBytes() {
        return bytes;
    }

    public void setBytes(Integer bytes) {
        this.bytes = bytes;
    }

    public String getValue() {
        return value;
    }

    public void setValue(String value) {
        this.value = value;
    }
}
