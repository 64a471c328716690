package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * The runners' client certificate for mutual TLS: a Secret of type {@code kubernetes.io/tls}, its
 * {@code tls.crt} (the chain) and {@code tls.key} (the key) mounted into the runner pods. The
 * operator never reads it.
 */
public class ClientCertificate {
    /** The keys a {@code kubernetes.io/tls} Secret holds. */
    public static final String CERTIFICATE_KEY = "tls.crt";

    public static final String KEY_KEY = "tls.key";

    @Required
    @Size(min = 1, max = SpecLimits.OBJECT_NAME_MAX)
    @Pattern(SpecLimits.OBJECT_NAME_PATTERN)
    @JsonPropertyDescription(
            "Name of a Secret of type kubernetes.io/tls (keys tls.crt and tls.key), in the"
                    + " namespace of the TcpLoadTest.")
    private String secretName;

    public ClientCertificate() {}

    public ClientCertificate(String secretName) {
        this.secretName = secretName;
    }

    public String getSecretName() {
        return secretName;
    }

    public void setSecretName(String secretName) {
        this.secretName = secretName;
    }
}
