package io.tcpload.operator.reconciler;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.KeyContents;
import io.tcpload.operator.validation.Sources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the texts a spec refers to in ConfigMaps (one GET each, while the test is Pending), so that
 * validation parses the profile the runners will load. A ConfigMap or key that does not exist fails
 * the test at once with the reference named: the runner pods could never mount it. Secrets are
 * never read: they are mounted, and a profile from one is checked by the runners when they start (a
 * missing one is the kubelet's FailedMount, which fails the test too).
 */
final class SourceReader {
    private SourceReader() {}

    /**
     * What was read.
     *
     * @param sources the texts found
     * @param missing the first reference that names nothing, or empty
     */
    record Read(Sources sources, Optional<Failure> missing) {}

    static Read read(KubernetesClient client, TcpLoadTest test) {
        TcpLoadTestSpec spec = test.getSpec();
        Sources inline = Sources.inline(spec);
        if (spec == null) {
            return new Read(inline, Optional.empty());
        }
        String namespace = test.getMetadata().getNamespace();
        Optional<String> profile = inline.profileText();
        Optional<Failure> missing = Optional.empty();
        if (spec.getProfileFrom() != null && spec.getProfileFrom().configMap().isPresent()) {
            Lookup lookup = key(client, namespace, spec.getProfileFrom().configMap().get());
            profile = lookup.text();
            missing = lookup.problem().map(problem -> new Failure("spec.profileFrom", problem));
        }
        Map<String, String> files = new LinkedHashMap<>(inline.fileContents());
        for (int i = 0; i < spec.getFiles().size(); i++) {
            DataFile file = spec.getFiles().get(i);
            if (file.getContent() == null
                    && file.getConfigMapKeyRef() != null
                    && file.getName() != null) {
                Lookup lookup = key(client, namespace, file.getConfigMapKeyRef());
                lookup.text().ifPresent(text -> files.put(file.getName(), text));
                String field = "spec.files[" + i + "].configMapKeyRef";
                if (missing.isEmpty()) {
                    missing = lookup.problem().map(problem -> new Failure(field, problem));
                }
            }
        }
        return new Read(new Sources(profile, files), missing);
    }

    /** A key's text, or why there is none. */
    private record Lookup(Optional<String> text, Optional<String> problem) {}

    private static Lookup key(KubernetesClient client, String namespace, ConfigMapKey ref) {
        if (ref.getName() == null || ref.getKey() == null) {
            // Validation names what is missing from the reference itself.
            return new Lookup(Optional.empty(), Optional.empty());
        }
        ConfigMap map = client.configMaps().inNamespace(namespace).withName(ref.getName()).get();
        if (map == null) {
            return new Lookup(
                    Optional.empty(),
                    Optional.of(
                            "ConfigMap '"
                                    + ref.getName()
                                    + "' does not exist in namespace '"
                                    + namespace
                                    + "'."));
        }
        String text = KeyContents.of(map, ref.getKey());
        if (text == null) {
            return new Lookup(
                    Optional.empty(),
                    Optional.of(
                            "ConfigMap '"
                                    + ref.getName()
                                    + "' has no key '"
                                    + ref.getKey()
                                    + "' (it has: "
                                    + (KeyContents.keys(map).isEmpty()
                                            ? "none"
                                            : String.join(", ", KeyContents.keys(map)))
                                    + ")."));
        }
        return new Lookup(Optional.of(text), Optional.empty());
    }
}
