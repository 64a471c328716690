package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pod settings of the runners; absent fields take the operator's defaults (the chart's runner
 * defaults, then the operator's own: see {@code RunnerDefaults}).
 *
 * <p>The fields added after the first release are left out of the JSON when empty ({@link
 * JsonInclude.Include#NON_EMPTY}, {@code NON_NULL}), so that the hash of a spec that does not use
 * them ({@code RunRecord}) is the one an earlier operator recorded on its Job: an upgrade in the
 * middle of a test does not take the test for a changed one.
 */
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

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @Size(max = SpecLimits.POD_LIST_ITEMS_MAX)
    @JsonPropertyDescription(
            "Environment variables of the runner container from whole ConfigMaps or Secrets;"
                    + " env and the operator's own variables win over them.")
    private List<EnvFromSource> envFrom = new ArrayList<>();

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @Size(max = SpecLimits.POD_LIST_ITEMS_MAX)
    @JsonPropertyDescription(
            "Extra volumes of the runner pods, beside the operator's own (profile, results, tmp),"
                    + " whose names they must not take.")
    private List<Volume> volumes = new ArrayList<>();

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @Size(max = SpecLimits.POD_LIST_ITEMS_MAX)
    @JsonPropertyDescription(
            "Extra volume mounts of the runner container, of volumes in volumes; not at, in or"
                    + " above the operator's own mount paths (/etc/tcpload/profile, /results,"
                    + " /tmp).")
    private List<VolumeMount> volumeMounts = new ArrayList<>();

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @Size(max = SpecLimits.INIT_CONTAINERS_MAX)
    @JsonPropertyDescription(
            "Init containers of the runner pods, run before the runner (restartPolicy: Always"
                    + " makes one a native sidecar); each gets allowPrivilegeEscalation false and"
                    + " all capabilities dropped unless its securityContext says otherwise.")
    private List<Container> initContainers = new ArrayList<>();

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyDescription(
            "The runner pods' securityContext, merged field by field over the operator's"
                    + " defaults (runAsNonRoot, the RuntimeDefault seccomp profile): a field given"
                    + " here wins.")
    private PodSecurityContext securityContext;

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyDescription(
            "The runner container's securityContext, merged field by field over the operator's"
                    + " defaults (read-only root filesystem, no privilege escalation, all"
                    + " capabilities dropped, runAsNonRoot): a field given here wins.")
    private SecurityContext containerSecurityContext;

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @Size(max = SpecLimits.POD_LIST_ITEMS_MAX)
    @JsonPropertyDescription(
            "Topology spread constraints of the runner pods, for example one runner per node.")
    private List<TopologySpreadConstraint> topologySpreadConstraints = new ArrayList<>();

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Min(0)
    @Max(SpecLimits.TERMINATION_GRACE_SECONDS_MAX)
    @JsonPropertyDescription(
            "Seconds a runner pod has after SIGTERM before it is killed; absent means"
                    + " Kubernetes' 30.")
    private Long terminationGracePeriodSeconds;

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

    public List<EnvFromSource> getEnvFrom() {
        return envFrom;
    }

    public void setEnvFrom(List<EnvFromSource> envFrom) {
        this.envFrom = envFrom;
    }

    public List<Volume> getVolumes() {
        return volumes;
    }

    public void setVolumes(List<Volume> volumes) {
        this.volumes = volumes;
    }

    public List<VolumeMount> getVolumeMounts() {
        return volumeMounts;
    }

    public void setVolumeMounts(List<VolumeMount> volumeMounts) {
        this.volumeMounts = volumeMounts;
    }

    public List<Container> getInitContainers() {
        return initContainers;
    }

    public void setInitContainers(List<Container> initContainers) {
        this.initContainers = initContainers;
    }

    public PodSecurityContext getSecurityContext() {
        return securityContext;
    }

    public void setSecurityContext(PodSecurityContext securityContext) {
        this.securityContext = securityContext;
    }

    public SecurityContext getContainerSecurityContext() {
        return containerSecurityContext;
    }

    public void setContainerSecurityContext(SecurityContext containerSecurityContext) {
        this.containerSecurityContext = containerSecurityContext;
    }

    public List<TopologySpreadConstraint> getTopologySpreadConstraints() {
        return topologySpreadConstraints;
    }

    public void setTopologySpreadConstraints(
            List<TopologySpreadConstraint> topologySpreadConstraints) {
        this.topologySpreadConstraints = topologySpreadConstraints;
    }

    public Long getTerminationGracePeriodSeconds() {
        return terminationGracePeriodSeconds;
    }

    public void setTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) {
        this.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
    }
}
