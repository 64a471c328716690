package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * A data file for the profile's {@code FILE} parameters, placed beside the profile in the runner
 * pod: inline {@code content}, a ConfigMap key or a Secret key.
 */
@ValidationRule(value = SpecRules.ONE_FILE_SOURCE, message = SpecRules.ONE_FILE_SOURCE_MESSAGE)
@ValidationRule(
        value = SpecRules.NOT_THE_PROFILE,
        message = SpecRules.NOT_THE_PROFILE_MESSAGE,
        fieldPath = ".name")
public class DataFile {
    @Required
    @Size(max = SpecLimits.KEY_MAX)
    @Pattern(SpecLimits.FILE_NAME_PATTERN)
    @JsonPropertyDescription(
            "File name as the profile's FILE parameter names it (for example accounts.txt); a"
                    + " plain name, no folders.")
    private String name;

    @Size(max = SpecLimits.INLINE_TEXT_MAX)
    @JsonPropertyDescription(
            "The file's text, one value per line. The inline profile and files together are at"
                    + " most 200 KiB; larger ones go in a ConfigMap.")
    private String content;

    @JsonPropertyDescription(
            "Take the file from this ConfigMap key (data, or binaryData for bytes that are not"
                    + " UTF-8) instead of content.")
    private ConfigMapKey configMapKeyRef;

    @JsonPropertyDescription(
            "Take the file from this Secret key instead of content: for values that are"
                    + " credentials; mounted into the runner pods, never read by the operator.")
    private SecretKey secretKeyRef;

    public DataFile() {}

    public static DataFile inline(String name, String content) {
        DataFile file = new DataFile();
        file.name = name;
        file.content = content;
        return file;
    }

    public static DataFile fromConfigMap(String name, ConfigMapKey ref) {
        DataFile file = new DataFile();
        file.name = name;
        file.configMapKeyRef = ref;
        return file;
    }

    public static DataFile fromSecret(String name, SecretKey ref) {
        DataFile file = new DataFile();
        file.name = name;
        file.secretKeyRef = ref;
        return file;
    }

    public SecretKey getSecretKeyRef() {
        return secretKeyRef;
    }

    public void setSecretKeyRef(SecretKey secretKeyRef) {
        this.secretKeyRef = secretKeyRef;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getContent() {
        return content;
    }

    public void setContent(String content) {
        this.content = content;
    }

    public ConfigMapKey getConfigMapKeyRef() {
        return configMapKeyRef;
    }

    public void setConfigMapKeyRef(ConfigMapKey configMapKeyRef) {
        this.configMapKeyRef = configMapKeyRef;
    }
}
