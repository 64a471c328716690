package io.tcpload.operator.crd;

import java.util.Set;

/**
 * The CRD's fields that hold Kubernetes' own types (from the fabric8 model): the generator gives
 * them no descriptions and cannot bound their strings and lists, so the CRD tests treat each as a
 * whole and do not descend into it.
 */
public final class KubernetesTypedFields {
    public static final Set<String> NAMES =
            Set.of(
                    "imagePullSecrets",
                    "resources",
                    "tolerations",
                    "affinity",
                    "env",
                    "envFrom",
                    "volumes",
                    "volumeMounts",
                    "initContainers",
                    "securityContext",
                    "containerSecurityContext",
                    "topologySpreadConstraints",
                    "conditions");

    private KubernetesTypedFields() {}
}
