package io.tcpload.operator.reconciler;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.status.Event;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;

/** Records events on a test (core/v1 Events); a failure to record never fails a reconcile. */
final class EventRecorder {
    static final String COMPONENT = "tcpload-operator";

    private EventRecorder() {}

    static void record(KubernetesClient client, TcpLoadTest test, Event event, Instant now) {
        String time = now.toString();
        String name =
                test.getMetadata().getName()
                        + "."
                        + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        try {
            client.v1()
                    .events()
                    .inNamespace(test.getMetadata().getNamespace())
                    .resource(
                            new EventBuilder()
                                    .withNewMetadata()
                                    .withName(name.toLowerCase(Locale.ROOT))
                                    .withNamespace(test.getMetadata().getNamespace())
                                    .endMetadata()
                                    .withNewInvolvedObject()
                                    .withApiVersion(test.getApiVersion())
                                    .withKind(test.getKind())
                                    .withName(test.getMetadata().getName())
                                    .withNamespace(test.getMetadata().getNamespace())
                                    .withUid(test.getMetadata().getUid())
                                    .endInvolvedObject()
                                    .withReason(event.reason().name())
                                    .withMessage(event.message())
                                    .withType(event.reason().warning() ? "Warning" : "Normal")
                                    .withFirstTimestamp(time)
                                    .withLastTimestamp(time)
                                    .withCount(1)
                                    .withNewSource()
                                    .withComponent(COMPONENT)
                                    .endSource()
                                    .build())
                    .create();
        } catch (KubernetesClientException e) {
            // Events are for people; the status carries the same facts.
        }
    }
}
