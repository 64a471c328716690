package io.tcpload.operator.children;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.runner.contract.RunnerProtocol;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;

/**
 * The Secret that gives a test's runner pods its control token ({@code NAME-control}, owned by the
 * test, deleted with it), and the variable that reads it. The operator creates it and never reads
 * it: it derives the token again from the test's UID ({@link ControlKey}). Pure.
 */
public final class ControlSecret {
    /** The Secret's key that holds the token. */
    public static final String KEY = "token";

    private ControlSecret() {}

    public static String name(TcpLoadTest test) {
        return test.getMetadata().getName() + "-control";
    }

    /** The Secret holding {@code token}, labelled and owned as the other children. */
    public static Secret secret(TcpLoadTest test, String token) {
        return new SecretBuilder()
                .withMetadata(
                        new ObjectMetaBuilder()
                                .withName(name(test))
                                .withNamespace(test.getMetadata().getNamespace())
                                .withLabels(DesiredResources.labels(test))
                                .withOwnerReferences(DesiredResources.ownerReference(test))
                                .build())
                .withType("Opaque")
                // data, not stringData: what a real API server stores and gives back.
                .withData(
                        Map.of(
                                KEY,
                                Base64.getEncoder()
                                        .encodeToString(token.getBytes(StandardCharsets.UTF_8))))
                .build();
    }

    /** {@code TCPLOAD_CONTROL_TOKEN} from the Secret, for the runner container. */
    public static EnvVar tokenVariable(TcpLoadTest test) {
        return new EnvVarBuilder()
                .withName(RunnerProtocol.CONTROL_TOKEN_VARIABLE)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(name(test))
                .withKey(KEY)
                .endSecretKeyRef()
                .endValueFrom()
                .build();
    }
}
