package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A key of a ConfigMap in the test's namespace. */
public class ConfigMapKey {
    @Required
    @Size(min = 1, max = SpecLimits.OBJECT_NAME_MAX)
    @Pattern(SpecLimits.OBJECT_NAME_PATTERN)
    @JsonPropertyDescription("Name of the ConfigMap, in the namespace of the TcpLoadTest.")
    private String name;

    @Required
    @Size(min = 1, max = SpecLimits.KEY_MAX)
    @Pattern(SpecLimits.KEY_PATTERN)
    @JsonPropertyDescription("Key within the ConfigMap.")
    private String key;

    public ConfigMapKey() {}

    public ConfigMapKey(String name, String key) {
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
