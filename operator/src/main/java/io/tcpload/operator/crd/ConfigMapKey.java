package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;

/** A key of a ConfigMap in the test's namespace. */
public class ConfigMapKey {
    @Required
    @JsonPropertyDescription("Name of the ConfigMap, in the namespace of the TcpLoadTest.")
    private String name;

    @Required
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
