package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Pod settings of the runners; absent fields take the operator's defaults. */
public class RunnerPodSettings {
    @Size(max = SpecLimits.IMAGE_MAX)
    @JsonPropertyDescription("Runner image; absent means the image the operator was built with.")
    private String image;

    @Pattern("^(Always|IfNotPresent|Never)$")
    @Size(max = 12)
    @JsonPropertyDescription("Image pull policy: Always, IfNotPresent or Never.")
    private String imagePullPolicy;

    @JsonPropertyDescription("Secrets for pulling the runner image.")
    private List<LocalObjectReference> imagePullSecrets = new ArrayList<>();

    @JsonPropertyDescription("CPU and memory requests and limits of the runner container.")
    private ResourceRequirements resources;

    @Size(max = SpecLimits.POD_MAP_ENTRIES_MAX)
    @JsonPropertyDescription("Node labels the runner pods must match.")
    private Map<String, @Size(max = SpecLimits.LABEL_VALUE_MAX) String> nodeSelector =
            new LinkedHashMap<>();

    @JsonPropertyDescription("Tolerations of the runner pods.")
    private List<Toleration> tolerations = new ArrayList<>();

    @JsonPropertyDescription("Affinity of the runner pods, for example to spread them over nodes.")
    private Affinity affinity;

    @JsonPropertyDescription("Extra environment variables of the runner container (TZ, JAVA_OPTS).")
    private List<EnvVar> env = new ArrayList<>();

    @Size(max = SpecLimits.OBJECT_NAME_MAX)
    @JsonPropertyDescription("Service account of the runner pods.")
    private String serviceAccountName;

    @Size(max = SpecLimits.POD_MAP_ENTRIES_MAX)
    @JsonPropertyDescription("Extra labels of the runner pods.")
    private Map<String, @Size(max = SpecLimits.LABEL_VALUE_MAX) String> labels =
            new LinkedHashMap<>();

    @Size(max = SpecLimits.POD_MAP_ENTRIES_MAX)
    @JsonPropertyDescription("Extra annotations of the runner pods.")
    private Map<String, @Size(max = SpecLimits.ANNOTATION_VALUE_MAX) String> annotations =
            new LinkedHashMap<>();

    @Size(max = SpecLimits.OBJECT_NAME_MAX)
    @JsonPropertyDescription("Priority class of the runner pods.")
    private String priorityClassName;

    public String getImage() {
        return image;
    }

    public void setImage(String image) {
        this.image = image;
    }

    public String getImagePullPolicy() {
        return imagePullPolicy;
    }

    public void setImagePullPolicy(String imagePullPolicy) {
        this.imagePullPolicy = imagePullPolicy;
    }

    public List<LocalObjectReference> getImagePullSecrets() {
        return imagePullSecrets;
    }

    public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
        this.imagePullSecrets = imagePullSecrets;
    }

    public ResourceRequirements getResources() {
        return resources;
    }

    public void setResources(ResourceRequirements resources) {
        this.resources = resources;
    }

    public Map<String, String> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public List<Toleration> getTolerations() {
        return tolerations;
    }

    public void setTolerations(List<Toleration> tolerations) {
        this.tolerations = tolerations;
    }

    public Affinity getAffinity() {
        return affinity;
    }

    public void setAffinity(Affinity affinity) {
        this.affinity = affinity;
    }

    public List<EnvVar> getEnv() {
        return env;
    }

    public void setEnv(List<EnvVar> env) {
        this.env = env;
    }

    public String getServiceAccountName() {
        return serviceAccountName;
    }

    public void setServiceAccountName(String serviceAccountName) {
        this.serviceAccountName = serviceAccountName;
    }

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }

    public String getPriorityClassName() {
        return priorityClassName;
    }

    public void setPriorityClassName(String priorityClassName) {
        this.priorityClassName = priorityClassName;
    }
}
