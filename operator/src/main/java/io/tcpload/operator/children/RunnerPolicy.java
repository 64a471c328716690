package io.tcpload.operator.children;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.tcpload.operator.crd.RunnerPodSettings;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the operator gives runner pods and what it lets a test ask for: its runner image, the runner
 * defaults it was given (the chart's {@code runnerDefaults}), over its own safe defaults, and the
 * allow-lists of images and service accounts a test may name. Immutable (the settings are copied in
 * and out), pure.
 *
 * <p>{@link #effective} lays the test's {@code spec.runner} over the given defaults, and those over
 * the operator's own, each field by one rule:
 *
 * <ul>
 *   <li>single values (image, pull policy, service account, priority class, grace period) and
 *       {@code affinity}: the test's when it gives one;
 *   <li>lists (pull secrets, tolerations, env, envFrom, volumes, volume mounts, init containers,
 *       topology spread constraints): the test's when not empty, replacing the defaults' whole;
 *   <li>maps (node selector, labels, annotations): merged key by key, the test's value winning;
 *   <li>{@code resources}: the test's when it gives any, replacing the defaults' whole, so that its
 *       requests are never held to a default limit below them; else the given defaults'; else the
 *       operator's ({@link #defaultResources});
 *   <li>the two security contexts: merged field by field at every depth over the operator's ({@link
 *       #defaultPodSecurityContext}, {@link #defaultContainerSecurityContext}), the given defaults'
 *       over those and the test's over all; a list in them (capabilities' {@code drop}) is replaced
 *       whole.
 * </ul>
 *
 * <p>Each init container gets {@link #defaultInitContainerSecurityContext} under its own.
 *
 * @param image the runner image of tests that name none ({@code TCPLOAD_RUNNER_IMAGE})
 * @param defaults the runner defaults the operator was given; no image ({@code image} is that)
 * @param images the images a test may name (its runner and init containers)
 * @param serviceAccounts the service accounts a test may name
 */
public record RunnerPolicy(
        String image, RunnerPodSettings defaults, AllowList images, AllowList serviceAccounts) {
    public static final String IMAGES_VARIABLE = "TCPLOAD_ALLOWED_RUNNER_IMAGES";
    public static final String SERVICE_ACCOUNTS_VARIABLE =
            "TCPLOAD_ALLOWED_RUNNER_SERVICE_ACCOUNTS";

    /** Before {@link #NONE}, which needs it. */
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    /** No defaults beyond the operator's own, no allow-lists: for local runs and tests. */
    public static final RunnerPolicy NONE = of(null);

    public RunnerPolicy {
        defaults = copy(defaults == null ? new RunnerPodSettings() : defaults);
    }

    /** The operator's own defaults and image, and no allow-lists. */
    public static RunnerPolicy of(String image) {
        return new RunnerPolicy(
                image,
                new RunnerPodSettings(),
                AllowList.any(IMAGES_VARIABLE),
                AllowList.any(SERVICE_ACCOUNTS_VARIABLE));
    }

    /** A copy of the given defaults. */
    @Override
    public RunnerPodSettings defaults() {
        return copy(defaults);
    }

    /**
     * Requests of a CPU and 512 MiB, so that runners are not the first evicted (BestEffort) and are
     * placed where a CPU is free; a memory limit of 1 GiB, so that a runner that grows is
     * OOM-killed alone, named in the test's status, rather than pressing its node; the JVM's
     * default heap, a quarter of the limit, and Netty's direct memory, as much again, fit it. No
     * CPU limit: CFS throttling would stall the event loops, and the stalls would be measured as
     * the target's latency.
     */
    public static ResourceRequirements defaultResources() {
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("1"))
                .addToRequests("memory", new Quantity("512Mi"))
                .addToLimits("memory", new Quantity("1Gi"))
                .build();
    }

    /**
     * Non-root with the RuntimeDefault seccomp profile, as Pod Security's {@code restricted} level
     * asks; no fixed user, group or fsGroup (the image's user, 65532, runs), since OpenShift's
     * {@code restricted-v2} refuses fixed ones outside the namespace's range.
     */
    public static PodSecurityContext defaultPodSecurityContext() {
        return new PodSecurityContextBuilder()
                .withRunAsNonRoot(true)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .build();
    }

    /** Read-only root, no privilege escalation, no capabilities, non-root. */
    public static SecurityContext defaultContainerSecurityContext() {
        return new SecurityContextBuilder()
                .withReadOnlyRootFilesystem(true)
                .withAllowPrivilegeEscalation(false)
                .withRunAsNonRoot(true)
                .withCapabilities(new Capabilities(null, List.of("ALL")))
                .build();
    }

    /**
     * What Pod Security's {@code restricted} level asks of every container beyond the pod's
     * settings; not a read-only root, which an init container may well need.
     */
    public static SecurityContext defaultInitContainerSecurityContext() {
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false)
                .withCapabilities(new Capabilities(null, List.of("ALL")))
                .build();
    }

    /** The settings a test's runner pods get: {@code test} over the defaults, as above. */
    public RunnerPodSettings effective(RunnerPodSettings test) {
        RunnerPodSettings top = test == null ? new RunnerPodSettings() : test;
        RunnerPodSettings base = defaults;
        RunnerPodSettings out = new RunnerPodSettings();
        out.setImage(first(top.getImage(), base.getImage(), image));
        out.setImagePullPolicy(first(top.getImagePullPolicy(), base.getImagePullPolicy(), null));
        out.setServiceAccountName(
                first(top.getServiceAccountName(), base.getServiceAccountName(), null));
        out.setPriorityClassName(
                first(top.getPriorityClassName(), base.getPriorityClassName(), null));
        out.setTerminationGracePeriodSeconds(
                first(
                        top.getTerminationGracePeriodSeconds(),
                        base.getTerminationGracePeriodSeconds(),
                        null));
        out.setAffinity(first(top.getAffinity(), base.getAffinity(), null));
        out.setImagePullSecrets(list(top.getImagePullSecrets(), base.getImagePullSecrets()));
        out.setTolerations(list(top.getTolerations(), base.getTolerations()));
        out.setEnv(list(top.getEnv(), base.getEnv()));
        out.setEnvFrom(list(top.getEnvFrom(), base.getEnvFrom()));
        out.setVolumes(list(top.getVolumes(), base.getVolumes()));
        out.setVolumeMounts(list(top.getVolumeMounts(), base.getVolumeMounts()));
        out.setTopologySpreadConstraints(
                list(top.getTopologySpreadConstraints(), base.getTopologySpreadConstraints()));
        out.setNodeSelector(map(base.getNodeSelector(), top.getNodeSelector()));
        out.setLabels(map(base.getLabels(), top.getLabels()));
        out.setAnnotations(map(base.getAnnotations(), top.getAnnotations()));
        out.setResources(
                given(top.getResources())
                        ? top.getResources()
                        : given(base.getResources()) ? base.getResources() : defaultResources());
        out.setSecurityContext(
                merged(
                        PodSecurityContext.class,
                        defaultPodSecurityContext(),
                        base.getSecurityContext(),
                        top.getSecurityContext()));
        out.setContainerSecurityContext(
                merged(
                        SecurityContext.class,
                        defaultContainerSecurityContext(),
                        base.getContainerSecurityContext(),
                        top.getContainerSecurityContext()));
        List<Container> initContainers = new ArrayList<>();
        for (Container container : list(top.getInitContainers(), base.getInitContainers())) {
            Container secured = convert(container, Container.class);
            secured.setSecurityContext(
                    merged(
                            SecurityContext.class,
                            defaultInitContainerSecurityContext(),
                            container.getSecurityContext()));
            initContainers.add(secured);
        }
        out.setInitContainers(initContainers);
        return out;
    }

    private static <T> T first(T test, T defaults, T fallback) {
        return test != null ? test : defaults != null ? defaults : fallback;
    }

    private static <T> List<T> list(List<T> test, List<T> defaults) {
        if (test != null && !test.isEmpty()) {
            return test;
        }
        return defaults == null ? new ArrayList<>() : defaults;
    }

    private static Map<String, String> map(Map<String, String> defaults, Map<String, String> test) {
        Map<String, String> merged = new LinkedHashMap<>();
        if (defaults != null) {
            merged.putAll(defaults);
        }
        if (test != null) {
            merged.putAll(test);
        }
        return merged;
    }

    private static boolean given(ResourceRequirements resources) {
        return resources != null
                && !(isEmpty(resources.getRequests())
                        && isEmpty(resources.getLimits())
                        && (resources.getClaims() == null || resources.getClaims().isEmpty()));
    }

    private static boolean isEmpty(Map<?, ?> map) {
        return map == null || map.isEmpty();
    }

    /** The layers, lowest first, merged key by key at every depth; nulls skipped. */
    private static <T> T merged(Class<T> type, Object... layers) {
        ObjectNode merged = JSON.createObjectNode();
        for (Object layer : layers) {
            if (layer != null) {
                deepMerge(merged, JSON.valueToTree(layer));
            }
        }
        return convert(merged, type);
    }

    private static void deepMerge(ObjectNode into, JsonNode from) {
        Iterator<Map.Entry<String, JsonNode>> fields = from.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode current = into.get(field.getKey());
            if (field.getValue().isNull()) {
                continue;
            }
            if (current instanceof ObjectNode object && field.getValue().isObject()) {
                deepMerge(object, field.getValue());
            } else {
                into.set(field.getKey(), field.getValue().deepCopy());
            }
        }
    }

    /** A copy that shares nothing with {@code settings}; empty settings for null. */
    public static RunnerPodSettings copyOf(RunnerPodSettings settings) {
        return settings == null ? new RunnerPodSettings() : copy(settings);
    }

    private static RunnerPodSettings copy(RunnerPodSettings settings) {
        // Nothing set is what the chart renders by default: a new object is that copy, without
        // building the JSON binding of the settings' Kubernetes types at every operator start.
        return unset(settings)
                ? new RunnerPodSettings()
                : convert(settings, RunnerPodSettings.class);
    }

    /**
     * Whether every field of {@code settings} is null or empty. By reflection, so that a field
     * added later cannot be forgotten here and its value dropped from a copy.
     */
    public static boolean unset(RunnerPodSettings settings) {
        for (Field field : RunnerPodSettings.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            Object value;
            try {
                field.setAccessible(true);
                value = field.get(settings);
            } catch (ReflectiveOperationException | RuntimeException e) {
                return false;
            }
            boolean empty =
                    value == null
                            || value instanceof Collection<?> list && list.isEmpty()
                            || value instanceof Map<?, ?> map && map.isEmpty();
            if (!empty) {
                return false;
            }
        }
        return true;
    }

    /** By JSON, so that the result shares nothing with {@code value}. */
    private static <T> T convert(Object value, Class<T> type) {
        try {
            return JSON.readValue(JSON.writeValueAsString(value), type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot copy " + type.getSimpleName(), e);
        }
    }
}
