package io.tcpload.operator.validation;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tcpload.operator.children.AllowList;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.SpecLimits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The runner pods' settings, of a test's {@code spec.runner} or of the operator's runner defaults:
 * tcpload's own bounds, what the settings add beside the operator's own volumes, mounts and
 * container (a clash the cluster would refuse, or worse accept: a mount over {@code /results} hides
 * the result), and what the operator's allow-lists let a test name. The first failure wins. Pure.
 *
 * <p>Kubernetes' own types are checked no further than a clash with tcpload's needs; the API server
 * judges the rest when the Job's pods are created, and the test fails with its message.
 */
public final class RunnerPodCheck {
    private static final Pattern PULL_POLICY = Pattern.compile("Always|IfNotPresent|Never");

    private RunnerPodCheck() {}

    /**
     * The settings on their own, {@code field} naming where they are ({@code spec.runner}, or the
     * environment variable of the operator's runner defaults).
     */
    public static Optional<Failure> settings(String field, RunnerPodSettings runner) {
        if (runner == null) {
            return Optional.empty();
        }
        if (runner.getImagePullPolicy() != null
                && !PULL_POLICY.matcher(runner.getImagePullPolicy()).matches()) {
            return fail(field + ".imagePullPolicy", "must be Always, IfNotPresent or Never.");
        }
        Long grace = runner.getTerminationGracePeriodSeconds();
        if (grace != null && (grace < 0 || grace > SpecLimits.TERMINATION_GRACE_SECONDS_MAX)) {
            return fail(
                    field + ".terminationGracePeriodSeconds",
                    "must be from 0 to " + SpecLimits.TERMINATION_GRACE_SECONDS_MAX + " seconds.");
        }
        List<Optional<Failure>> checks =
                List.of(
                        atMost(field + ".image", runner.getImage(), SpecLimits.IMAGE_MAX),
                        atMost(
                                field + ".serviceAccountName",
                                runner.getServiceAccountName(),
                                SpecLimits.OBJECT_NAME_MAX),
                        atMost(
                                field + ".priorityClassName",
                                runner.getPriorityClassName(),
                                SpecLimits.OBJECT_NAME_MAX),
                        map(
                                field + ".nodeSelector",
                                runner.getNodeSelector(),
                                SpecLimits.LABEL_VALUE_MAX),
                        map(field + ".labels", runner.getLabels(), SpecLimits.LABEL_VALUE_MAX),
                        map(
                                field + ".annotations",
                                runner.getAnnotations(),
                                SpecLimits.ANNOTATION_VALUE_MAX),
                        size(
                                field + ".envFrom",
                                runner.getEnvFrom(),
                                SpecLimits.POD_LIST_ITEMS_MAX),
                        size(
                                field + ".volumes",
                                runner.getVolumes(),
                                SpecLimits.POD_LIST_ITEMS_MAX),
                        size(
                                field + ".volumeMounts",
                                runner.getVolumeMounts(),
                                SpecLimits.POD_LIST_ITEMS_MAX),
                        size(
                                field + ".initContainers",
                                runner.getInitContainers(),
                                SpecLimits.INIT_CONTAINERS_MAX),
                        size(
                                field + ".topologySpreadConstraints",
                                runner.getTopologySpreadConstraints(),
                                SpecLimits.POD_LIST_ITEMS_MAX));
        for (Optional<Failure> check : checks) {
            if (check.isPresent()) {
                return check;
            }
        }
        return envFrom(field, nonNull(runner.getEnvFrom()))
                .or(() -> volumes(field, nonNull(runner.getVolumes())))
                .or(() -> volumeMounts(field, nonNull(runner.getVolumeMounts())))
                .or(() -> initContainers(field, nonNull(runner.getInitContainers())));
    }

    /**
     * What needs the operator's policy: the mounts name volumes of the settings the pods get (the
     * test's over the operator's defaults), and the images and service account the test names are
     * on the allow-lists. What the operator's own settings give (its runner image, its defaults) is
     * its own choice and always allowed.
     */
    static Optional<Failure> withPolicy(RunnerPodSettings test, RunnerPolicy policy) {
        RunnerPodSettings runner = test == null ? new RunnerPodSettings() : test;
        RunnerPodSettings effective = policy.effective(runner);
        Set<String> volumes =
                nonNull(effective.getVolumes()).stream()
                        .map(Volume::getName)
                        .collect(Collectors.toSet());
        List<VolumeMount> mounts = nonNull(effective.getVolumeMounts());
        boolean testMounts = !nonNull(runner.getVolumeMounts()).isEmpty();
        for (int i = 0; i < mounts.size(); i++) {
            String name = mounts.get(i).getName();
            if (!volumes.contains(name)) {
                if (!testMounts) {
                    return fail(
                            "spec.runner.volumes",
                            "replaces the volumes of the operator's runner defaults, whose"
                                    + " volumeMounts["
                                    + i
                                    + "] mounts '"
                                    + name
                                    + "': give spec.runner.volumeMounts too, or a volume of that"
                                    + " name.");
                }
                return fail(
                        "spec.runner.volumeMounts[" + i + "].name",
                        "'"
                                + name
                                + "' names no volume of spec.runner.volumes"
                                + (nonNull(runner.getVolumes()).isEmpty()
                                        ? " or of the operator's runner defaults"
                                        : "")
                                + (volumes.isEmpty()
                                        ? " (there are none)."
                                        : " (" + String.join(", ", sorted(volumes)) + ")."));
            }
        }
        if (runner.getImage() != null && !policy.images().allows(runner.getImage())) {
            return fail(
                    "spec.runner.image", notAllowed(runner.getImage(), "image", policy.images()));
        }
        List<Container> initContainers = nonNull(runner.getInitContainers());
        for (int i = 0; i < initContainers.size(); i++) {
            String image = initContainers.get(i).getImage();
            if (!policy.images().allows(image)) {
                return fail(
                        "spec.runner.initContainers[" + i + "].image",
                        notAllowed(image, "image", policy.images()));
            }
        }
        if (runner.getServiceAccountName() != null
                && !policy.serviceAccounts().allows(runner.getServiceAccountName())) {
            return fail(
                    "spec.runner.serviceAccountName",
                    notAllowed(
                            runner.getServiceAccountName(),
                            "service account",
                            policy.serviceAccounts()));
        }
        return Optional.empty();
    }

    private static String notAllowed(String name, String what, AllowList list) {
        return "'"
                + name
                + "' is not on the operator's allow-list of runner "
                + what
                + "s ("
                + list.source()
                + ": "
                + list.describe()
                + "); ask the operator's administrators, or use one on the list.";
    }

    private static Optional<Failure> envFrom(String field, List<EnvFromSource> sources) {
        for (int i = 0; i < sources.size(); i++) {
            EnvFromSource source = sources.get(i);
            int refs =
                    (source.getConfigMapRef() != null ? 1 : 0)
                            + (source.getSecretRef() != null ? 1 : 0);
            if (refs != 1) {
                return fail(
                        field + ".envFrom[" + i + "]", "give either configMapRef or secretRef.");
            }
            String name =
                    source.getConfigMapRef() != null
                            ? source.getConfigMapRef().getName()
                            : source.getSecretRef().getName();
            if (isBlank(name)) {
                return fail(
                        field
                                + ".envFrom["
                                + i
                                + "]."
                                + (source.getConfigMapRef() != null ? "configMapRef" : "secretRef")
                                + ".name",
                        "is missing.");
            }
        }
        return Optional.empty();
    }

    private static Optional<Failure> volumes(String field, List<Volume> volumes) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            String name = volumes.get(i).getName();
            String at = field + ".volumes[" + i + "].name";
            if (isBlank(name)) {
                return fail(at, "is missing.");
            }
            if (DesiredResources.OWN_MOUNTS.containsKey(name)) {
                return fail(
                        at,
                        "'"
                                + name
                                + "' is a volume of the operator's own ("
                                + ownMounts()
                                + "); name yours otherwise.");
            }
            if (!names.add(name)) {
                return fail(at, "'" + name + "' is given twice.");
            }
        }
        return Optional.empty();
    }

    private static Optional<Failure> volumeMounts(String field, List<VolumeMount> mounts) {
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < mounts.size(); i++) {
            VolumeMount mount = mounts.get(i);
            String at = field + ".volumeMounts[" + i + "]";
            if (isBlank(mount.getName())) {
                return fail(at + ".name", "is missing.");
            }
            if (DesiredResources.OWN_MOUNTS.containsKey(mount.getName())) {
                return fail(
                        at + ".name",
                        "'"
                                + mount.getName()
                                + "' is a volume of the operator's own ("
                                + ownMounts()
                                + "); mount a volume of "
                                + field
                                + ".volumes.");
            }
            Optional<String> path = normalised(mount.getMountPath());
            if (path.isEmpty()) {
                return fail(
                        at + ".mountPath",
                        "'" + mount.getMountPath() + "' is not an absolute path without '..'.");
            }
            for (Map.Entry<String, String> own : DesiredResources.OWN_MOUNTS.entrySet()) {
                if (overlaps(path.get(), own.getValue())) {
                    return fail(
                            at + ".mountPath",
                            "'"
                                    + mount.getMountPath()
                                    + "' clashes with the operator's own mount of "
                                    + own.getKey()
                                    + " at "
                                    + own.getValue()
                                    + " (its own mounts: "
                                    + ownMounts()
                                    + "); mount elsewhere, not at, inside or above them.");
                }
            }
            if (!paths.add(path.get())) {
                return fail(at + ".mountPath", "'" + path.get() + "' is mounted twice.");
            }
        }
        return Optional.empty();
    }

    private static Optional<Failure> initContainers(String field, List<Container> containers) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < containers.size(); i++) {
            Container container = containers.get(i);
            String at = field + ".initContainers[" + i + "]";
            if (isBlank(container.getName())) {
                return fail(at + ".name", "is missing.");
            }
            if (container.getName().equals(DesiredResources.CONTAINER)) {
                return fail(
                        at + ".name",
                        "'"
                                + DesiredResources.CONTAINER
                                + "' is the runner container's own name; name yours otherwise.");
            }
            if (!names.add(container.getName())) {
                return fail(at + ".name", "'" + container.getName() + "' is given twice.");
            }
            if (isBlank(container.getImage())) {
                return fail(at + ".image", "is missing.");
            }
        }
        return Optional.empty();
    }

    /** {@code /a/b}: absolute, without empty or {@code .} segments; empty for {@code ..}. */
    static Optional<String> normalised(String path) {
        if (path == null || !path.startsWith("/")) {
            return Optional.empty();
        }
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                return Optional.empty();
            }
            if (!segment.isEmpty() && !segment.equals(".")) {
                segments.add(segment);
            }
        }
        return Optional.of("/" + String.join("/", segments));
    }

    /** Whether {@code a} and {@code b} are one path or one lies inside the other. */
    private static boolean overlaps(String a, String b) {
        return a.equals(b) || within(a, b) || within(b, a);
    }

    private static boolean within(String inner, String outer) {
        return outer.equals("/") || inner.startsWith(outer + "/");
    }

    private static String ownMounts() {
        return DesiredResources.OWN_MOUNTS.entrySet().stream()
                .map(e -> e.getKey() + " at " + e.getValue())
                .collect(Collectors.joining(", "));
    }

    private static <T> Optional<Failure> size(String field, List<T> list, int most) {
        if (list != null && list.size() > most) {
            return fail(field, "must have at most " + most + " items.");
        }
        return Optional.empty();
    }

    private static Optional<Failure> atMost(String field, String text, int most) {
        if (text != null && text.length() > most) {
            return fail(field, "must be at most " + most + " characters.");
        }
        return Optional.empty();
    }

    private static Optional<Failure> map(String field, Map<String, String> map, int valueMost) {
        if (map == null) {
            return Optional.empty();
        }
        if (map.size() > SpecLimits.POD_MAP_ENTRIES_MAX) {
            return fail(field, "must have at most " + SpecLimits.POD_MAP_ENTRIES_MAX + " entries.");
        }
        for (Map.Entry<String, String> entry : map.entrySet()) {
            Optional<Failure> failure =
                    atMost(field + "[" + entry.getKey() + "]", entry.getValue(), valueMost);
            if (failure.isPresent()) {
                return failure;
            }
        }
        return Optional.empty();
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    private static Optional<Failure> fail(String field, String message) {
        return Optional.of(new Failure(field, message));
    }
}
