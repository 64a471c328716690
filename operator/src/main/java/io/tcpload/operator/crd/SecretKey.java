package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A key of a Secret in the test's namespace. The operator never reads it: it is mounted into the
 * runner pods.
 */
public class SecretKey {
    @Required
    @Size(min = 1, max = SpecLimits.OBJECT_NAME_MAX)
    @Pattern(SpecLimits.OBJECT_NAME_PATTERN)
    @JsonPropertyDescription("Name of the Secret, in the namespace of the TcpLoadTest.")
    private String name;

    @Required
    @Size(min = 1, max = SpecLimits.KEY_MAX)
    @Pattern(SpecLimits.KEY_PATTERN)
    @JsonPropertyDescription("Key within the Secret.")
    private String key;

    public SecretKey() {}

    public SecretKey(String name, String key) {
        this.name = name;
        this.key = key;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }
}
