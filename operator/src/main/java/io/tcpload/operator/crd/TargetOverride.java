package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** Where the load goes, overriding the profile's {@code [common]} host and port. */
public class TargetOverride {
    @Required
    @Size(min = 1, max = SpecLimits.HOST_MAX)
    @Pattern(SpecLimits.HOST_PATTERN)
    @JsonPropertyDescription(
            "Host name or IP address, typically a Service DNS name such as"
                    + " payments.bank.svc.cluster.local.")
    private String host;

    @Required
    @Min(1)
    @Max(65535)
    @JsonPropertyDescription("TCP port, 1-65535.")
    private Integer port;

    public TargetOverride() {}

    public TargetOverride(String host, Integer port) {
        this.host = host;
        this.port = port;
    }

    public String getHost() {
        return host;
    }

    public void setHost(String host) {
        this.host = host;
    }

    public Integer getPort() {
        return port;
    }

    public void setPort(Integer port) {
        this.port = port;
    }
}
