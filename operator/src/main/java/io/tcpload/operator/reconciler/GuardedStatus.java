package io.tcpload.operator.reconciler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import java.util.Optional;

/**
 * Writes a test's whole status only over the version it was computed from: a JSON Patch of the
 * status subresource that first tests the {@code resourceVersion} of the copy read, which fails
 * once anything has written the resource since. A reconcile handed a stale copy (a cache a moment
 * behind the operator's own write) therefore cannot record a second start instant, nor fail a test
 * whose runners were told the first: its write is refused, and it decides again from the resource
 * as it is.
 */
final class GuardedStatus {
    private static final ObjectMapper JSON = new ObjectMapper();

    private GuardedStatus() {}

    /**
     * Writes {@code status} over {@code read}.
     *
     * @return the resource as written; empty when {@code read} is not the latest version
     */
    static Optional<TcpLoadTest> write(
            KubernetesClient client, TcpLoadTest read, TcpLoadTestStatus status) {
        if (read.getMetadata().getResourceVersion() == null) {
            throw new IllegalStateException("a status is written only over a version read");
        }
        String version = read.getMetadata().getResourceVersion();
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject()
                .put("op", "test")
                .put("path", "/metadata/resourceVersion")
                .put("value", version);
        // add, not replace: it also sets a status the resource has none of yet.
        patch.addObject()
                .put("op", "add")
                .put("path", "/status")
                .set("value", JSON.valueToTree(status));
        var resource =
                client.resources(TcpLoadTest.class)
                        .inNamespace(read.getMetadata().getNamespace())
                        .withName(read.getMetadata().getName());
        try {
            return Optional.of(
                    resource.subresource("status")
                            .patch(PatchContext.of(PatchType.JSON), patch.toString()));
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return Optional.empty();
            }
            if (e.getCode() == 422) {
                // A failed test, or a status the schema refuses: only the first is a stale copy.
                TcpLoadTest now = resource.get();
                if (now != null && !version.equals(now.getMetadata().getResourceVersion())) {
                    return Optional.empty();
                }
            }
            throw e;
        }
    }
}
