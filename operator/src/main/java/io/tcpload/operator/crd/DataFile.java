package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * A data file for the profile's {@code FILE} parameters, placed beside the profile in the runner
 * pod: either inline {@code content} or a ConfigMap key.
 */
public class DataFile {
    @Required
    @Pattern("^[-._a-zA-Z0-9]+$")
    @JsonPropertyDescription(
            "File name as the profile's FILE parameter names it (for example accounts.txt); a"
                    + " plain name, no folders.")
    private String name;

    @JsonPropertyDescription("The file's text, one value per line.")
    private String content;

    @JsonPropertyDescription("Take the file's text from this ConfigMap key instead of content.")
    private ConfigMapKey configMapKeyRef;

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
