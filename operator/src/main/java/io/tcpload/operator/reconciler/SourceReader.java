package io.tcpload.operator.reconciler;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.validation.Sources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the texts a spec refers to in ConfigMaps, so that validation parses the profile the runners
 * will load. A missing ConfigMap or key leaves the text unknown (validation then checks what it
 * can; the pod would not start, and its reason reaches the status).
 */
final class SourceReader {
    private SourceReader() {}

    static Sources read(KubernetesClient client, TcpLoadTest test) {
        TcpLoadTestSpec spec = test.getSpec();
        Sources inline = Sources.inline(spec);
        if (spec == null) {
            return inline;
        }
        String namespace = test.getMetadata().getNamespace();
        Optional<String> profile = inline.profileText();
        if (spec.getProfileFrom() != null) {
            profile = key(client, namespace, spec.getProfileFrom());
        }
        Map<String, String> files = new LinkedHashMap<>(inline.fileContents());
        for (DataFile file : spec.getFiles()) {
            if (file.getContent() == null
                    && file.getConfigMapKeyRef() != null
                    && file.getName() != null) {
                key(client, namespace, file.getConfigMapKeyRef())
                        .ifPresent(text -> files.put(file.getName(), text));
            }
        }
        return new Sources(profile, files);
    }

    private static Optional<String> key(
            KubernetesClient client, String namespace, ConfigMapKey ref) {
        if (ref.getName() == null || ref.getKey() == null) {
            return Optional.empty();
        }
        ConfigMap map = client.configMaps().inNamespace(namespace).withName(ref.getName()).get();
        return map == null || map.getData() == null
                ? Optional.empty()
                : Optional.ofNullable(map.getData().get(ref.getKey()));
    }
}
