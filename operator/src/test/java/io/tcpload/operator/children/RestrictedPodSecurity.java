package io.tcpload.operator.children;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pod Security Admission's {@code restricted} level, which includes {@code baseline}, as rules over
 * a pod spec, each finding named by its field: what an API server with {@code
 * pod-security.kubernetes.io/enforce: restricted} would refuse. The rules are the Pod Security
 * Standards' (Kubernetes 1.29 to 1.34), as the project's notes on Kubernetes list them, checked
 * over every container, init containers included. Pure.
 */
public final class RestrictedPodSecurity {
    /** The volume types {@code restricted} allows. */
    private static final Set<String> VOLUME_TYPES =
            Set.of(
                    "configMap",
                    "csi",
                    "downwardAPI",
                    "emptyDir",
                    "ephemeral",
                    "persistentVolumeClaim",
                    "projected",
                    "secret");

    /** The sysctls {@code baseline} allows. */
    private static final Set<String> SAFE_SYSCTLS =
            Set.of(
                    "kernel.shm_rmid_forced",
                    "net.ipv4.ip_local_port_range",
                    "net.ipv4.ip_unprivileged_port_start",
                    "net.ipv4.tcp_syncookies",
                    "net.ipv4.ping_group_range",
                    "net.ipv4.ip_local_reserved_ports",
                    "net.ipv4.tcp_keepalive_time",
                    "net.ipv4.tcp_fin_timeout",
                    "net.ipv4.tcp_keepalive_intvl",
                    "net.ipv4.tcp_keepalive_probes");

    private static final Set<String> SECCOMP_TYPES = Set.of("RuntimeDefault", "Localhost");
    private static final ObjectMapper JSON = new ObjectMapper();

    private RestrictedPodSecurity() {}

    /** What {@code restricted} refuses in {@code pod}; empty when it admits the pod. */
    public static List<String> violations(PodSpec pod) {
        List<String> found = new ArrayList<>();
        if (Boolean.TRUE.equals(pod.getHostNetwork())) {
            found.add("spec.hostNetwork: host namespaces are not allowed");
        }
        if (Boolean.TRUE.equals(pod.getHostPID())) {
            found.add("spec.hostPID: host namespaces are not allowed");
        }
        if (Boolean.TRUE.equals(pod.getHostIPC())) {
            found.add("spec.hostIPC: host namespaces are not allowed");
        }
        for (Volume volume : nonNull(pod.getVolumes())) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = JSON.convertValue(volume, Map.class);
            Set<String> types = new TreeSet<>(fields.keySet());
            types.remove("name");
            types.removeAll(VOLUME_TYPES);
            if (!types.isEmpty()) {
                found.add(
                        "spec.volumes["
                                + volume.getName()
                                + "]: volume type "
                                + types
                                + " not allowed");
            }
        }
        PodSecurityContext podContext = pod.getSecurityContext();
        boolean podNonRoot =
                podContext != null && Boolean.TRUE.equals(podContext.getRunAsNonRoot());
        boolean podSeccomp = podContext != null && allowedSeccomp(podContext.getSeccompProfile());
        if (podContext != null) {
            if (Long.valueOf(0).equals(podContext.getRunAsUser())) {
                found.add("spec.securityContext.runAsUser: 0 is not allowed");
            }
            if (podContext.getSeccompProfile() != null && !podSeccomp) {
                found.add(
                        "spec.securityContext.seccompProfile: must be RuntimeDefault or Localhost");
            }
            if (podContext.getSeLinuxOptions() != null) {
                seLinux("spec.securityContext", podContext.getSeLinuxOptions(), found);
            }
            for (Sysctl sysctl : nonNull(podContext.getSysctls())) {
                if (!SAFE_SYSCTLS.contains(sysctl.getName())) {
                    found.add("spec.securityContext.sysctls: " + sysctl.getName() + " is not safe");
                }
            }
            if (podContext.getAppArmorProfile() != null
                    && "Unconfined".equals(podContext.getAppArmorProfile().getType())) {
                found.add("spec.securityContext.appArmorProfile: Unconfined is not allowed");
            }
            if (podContext.getWindowsOptions() != null
                    && Boolean.TRUE.equals(podContext.getWindowsOptions().getHostProcess())) {
                found.add("spec.securityContext.windowsOptions.hostProcess: not allowed");
            }
        }
        List<Container> containers = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (Container c : nonNull(pod.getInitContainers())) {
            containers.add(c);
            where.add("spec.initContainers[" + c.getName() + "]");
        }
        for (Container c : nonNull(pod.getContainers())) {
            containers.add(c);
            where.add("spec.containers[" + c.getName() + "]");
        }
        for (int i = 0; i < containers.size(); i++) {
            container(where.get(i), containers.get(i), podNonRoot, podSeccomp, found);
        }
        return found;
    }

    private static void container(
            String at,
            Container container,
            boolean podNonRoot,
            boolean podSeccomp,
            List<String> found) {
        for (var port : nonNull(container.getPorts())) {
            if (port.getHostPort() != null && port.getHostPort() != 0) {
                found.add(at + ".ports: hostPort is not allowed");
            }
        }
        SecurityContext context = container.getSecurityContext();
        if (context == null) {
            found.add(at + ".securityContext: allowPrivilegeEscalation must be false");
            found.add(at + ".securityContext.capabilities.drop: must include ALL");
            if (!podNonRoot) {
                found.add(at + ".securityContext.runAsNonRoot: must be true");
            }
            if (!podSeccomp) {
                found.add(
                        at
                                + ".securityContext.seccompProfile: must be RuntimeDefault or Localhost");
            }
            return;
        }
        if (Boolean.TRUE.equals(context.getPrivileged())) {
            found.add(at + ".securityContext.privileged: not allowed");
        }
        if (!Boolean.FALSE.equals(context.getAllowPrivilegeEscalation())) {
            found.add(at + ".securityContext.allowPrivilegeEscalation: must be false");
        }
        Capabilities capabilities = context.getCapabilities();
        if (capabilities == null || !nonNull(capabilities.getDrop()).contains("ALL")) {
            found.add(at + ".securityContext.capabilities.drop: must include ALL");
        }
        if (capabilities != null) {
            for (String added : nonNull(capabilities.getAdd())) {
                if (!added.equals("NET_BIND_SERVICE")) {
                    found.add(at + ".securityContext.capabilities.add: " + added + " not allowed");
                }
            }
        }
        if (Boolean.FALSE.equals(context.getRunAsNonRoot())
                || (!podNonRoot && !Boolean.TRUE.equals(context.getRunAsNonRoot()))) {
            found.add(at + ".securityContext.runAsNonRoot: must be true");
        }
        if (Long.valueOf(0).equals(context.getRunAsUser())) {
            found.add(at + ".securityContext.runAsUser: 0 is not allowed");
        }
        SeccompProfile seccomp = context.getSeccompProfile();
        if (seccomp != null ? !allowedSeccomp(seccomp) : !podSeccomp) {
            found.add(at + ".securityContext.seccompProfile: must be RuntimeDefault or Localhost");
        }
        if (context.getProcMount() != null && !"Default".equals(context.getProcMount())) {
            found.add(at + ".securityContext.procMount: must be Default");
        }
        if (context.getSeLinuxOptions() != null) {
            seLinux(at + ".securityContext", context.getSeLinuxOptions(), found);
        }
        if (context.getAppArmorProfile() != null
                && "Unconfined".equals(context.getAppArmorProfile().getType())) {
            found.add(at + ".securityContext.appArmorProfile: Unconfined is not allowed");
        }
        if (context.getWindowsOptions() != null
                && Boolean.TRUE.equals(context.getWindowsOptions().getHostProcess())) {
            found.add(at + ".securityContext.windowsOptions.hostProcess: not allowed");
        }
    }

    private static void seLinux(
            String at, io.fabric8.kubernetes.api.model.SELinuxOptions options, List<String> found) {
        Set<String> types =
                Set.of(
                        "",
                        "container_t",
                        "container_init_t",
                        "container_kvm_t",
                        "container_engine_t");
        if (options.getType() != null && !types.contains(options.getType())) {
            found.add(at + ".seLinuxOptions.type: " + options.getType() + " not allowed");
        }
        if (options.getUser() != null && !options.getUser().isEmpty()) {
            found.add(at + ".seLinuxOptions.user: not allowed");
        }
        if (options.getRole() != null && !options.getRole().isEmpty()) {
            found.add(at + ".seLinuxOptions.role: not allowed");
        }
    }

    private static boolean allowedSeccomp(SeccompProfile profile) {
        return profile != null && SECCOMP_TYPES.contains(profile.getType());
    }

    private static <T> List<T> nonNull(List<T> list) {
        return list == null ? List.of() : list;
    }
}
