package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * A file that comes from a ConfigMap key or a Secret key, as {@code files[]} take theirs: mounted
 * into the runner pods, never copied. Used for the TLS CA bundle.
 */
@ValidationRule(value = SpecRules.ONE_KEY_SOURCE, message = SpecRules.ONE_KEY_SOURCE_MESSAGE)
public class KeySource {
    @JsonPropertyDescription("Take the file from this ConfigMap key.")
    private ConfigMapKey configMapKeyRef;

    @JsonPropertyDescription(
            "Take the file from this Secret key; mounted into the runner pods, never read by the"
                    + " operator.")
    private SecretKey secretKeyRef;

    public KeySource() {}

    public static KeySource configMap(String name, String key) {
        KeySource source = new KeySource();
        source.configMapKeyRef = new ConfigMapKey(name, key);
        return source;
    }

    public static KeySource secret(String name, String key) {
        KeySource source = new KeySource();
        source.secretKeyRef = new SecretKey(name, key);
        return source;
    }

    public ConfigMapKey getConfigMapKeyRef() {
        return configMapKeyRef;
    }

    public void setConfigMapKeyRef(ConfigMapKey configMapKeyRef) {
        this.configMapKeyRef = configMapKeyRef;
    }

    public SecretKey getSecretKeyRef() {
        return secretKeyRef;
    }

    public void setSecretKeyRef(SecretKey secretKeyRef) {
        this.secretKeyRef = secretKeyRef;
    }
}
