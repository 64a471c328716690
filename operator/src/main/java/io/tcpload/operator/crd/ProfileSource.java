package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.Optional;

/**
 * Where the profile comes from when it is not inline: a ConfigMap key (its {@code data}, or its
 * {@code binaryData} for a profile that is not UTF-8) or a Secret key (for a profile that carries
 * credentials; the operator mounts it and never reads it). The first form, {@code name} and {@code
 * key} of a ConfigMap, is kept for tests written before the others.
 */
@ValidationRule(
        value = SpecRules.ONE_PROFILE_SOURCE,
        message = SpecRules.ONE_PROFILE_SOURCE_MESSAGE)
public class ProfileSource {
    @Size(min = 1, max = SpecLimits.OBJECT_NAME_MAX)
    @Pattern(SpecLimits.OBJECT_NAME_PATTERN)
    @JsonPropertyDescription(
            "Name of a ConfigMap holding the profile, with key (the first form; configMapKeyRef"
                    + " says the same).")
    private String name;

    @Size(min = 1, max = SpecLimits.KEY_MAX)
    @Pattern(SpecLimits.KEY_PATTERN)
    @JsonPropertyDescription("Key within that ConfigMap, with name.")
    private String key;

    @JsonPropertyDescription(
            "A ConfigMap key holding the profile (in data, or in binaryData for a profile in"
                    + " another encoding than UTF-8).")
    private ConfigMapKey configMapKeyRef;

    @JsonPropertyDescription(
            "A Secret key holding the profile, for one that carries credentials; mounted into the"
                    + " runner pods, never read by the operator (the runners check it when they"
                    + " start).")
    private SecretKey secretKeyRef;

    public ProfileSource() {}

    public static ProfileSource configMap(String name, String key) {
        ProfileSource source = new ProfileSource();
        source.configMapKeyRef = new ConfigMapKey(name, key);
        return source;
    }

    public static ProfileSource secret(String name, String key) {
        ProfileSource source = new ProfileSource();
        source.secretKeyRef = new SecretKey(name, key);
        return source;
    }

    /** The ConfigMap key, in either form, when the profile comes from one. */
    @JsonIgnore
    public Optional<ConfigMapKey> configMap() {
        if (configMapKeyRef != null) {
            return Optional.of(configMapKeyRef);
        }
        return name != null || key != null
                ? Optional.of(new ConfigMapKey(name, key))
                : Optional.empty();
    }

    /** The Secret key, when the profile comes from one. */
    @JsonIgnore
    public Optional<SecretKey> secret() {
        return Optional.ofNullable(secretKeyRef);
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
