package io.tcpload.operator.crd;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Where the runners' TLS files come from, for a profile with {@code tls = true}: the client
 * certificate and key (a {@code kubernetes.io/tls} Secret) and, separately, the CA bundle (a
 * ConfigMap or Secret key: a {@code kubernetes.io/tls} Secret holds a certificate with its key, not
 * a CA alone). They are mounted into the runner pods and stand for the profile's {@code tls_ca},
 * {@code tls_cert} and {@code tls_key}; the operator reads none of them.
 */
@ValidationRule(value = SpecRules.TLS_SOMETHING, message = SpecRules.TLS_SOMETHING_MESSAGE)
public class TlsSettings {
    @JsonPropertyDescription(
            "The client certificate and key for mutual TLS, from a Secret of type"
                    + " kubernetes.io/tls; in place of the profile's tls_cert and tls_key.")
    private ClientCertificate clientCertificate;

    @JsonPropertyDescription(
            "The CA bundle (PEM) the server's certificate must chain to, from a ConfigMap or Secret"
                    + " key; in place of the profile's tls_ca.")
    private KeySource ca;

    public TlsSettings() {}

    public ClientCertificate getClientCertificate() {
        return clientCertificate;
    }

    public void setClientCertificate(ClientCertificate clientCertificate) {
        this.clientCertificate = clientCertificate;
    }

    public KeySource getCa() {
        return ca;
    }

    public void setCa(KeySource ca) {
        this.ca = ca;
    }
}
