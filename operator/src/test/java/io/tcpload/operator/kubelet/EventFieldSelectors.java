package io.tcpload.operator.kubelet;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.crud.PostHandler;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;
import java.lang.reflect.Field;

/**
 * Teaches the mock API server the field selectors a real one answers for Events ({@code reason},
 * {@code type}, {@code involvedObject.kind}, {@code involvedObject.name}), so that the operator's
 * informers over its Jobs' and pods' warnings see in the tests what they see in a cluster. The mock
 * matches a field selector only against metadata: without this, an informer selecting Events by
 * reason would see none, and a test of it would pass or fail for the wrong reason.
 *
 * <p>The mock has no hook for it, so its extractor of an object's attributes is replaced by one
 * that also names an Event's fields, in the three places that hold it.
 */
final class EventFieldSelectors {
    private EventFieldSelectors() {}

    static void teach(KubernetesMixedDispatcher dispatcher) {
        try {
            Object crud =
                    read(dispatcher, KubernetesMixedDispatcher.class, "kubernetesCrudDispatcher");
            Object processor = read(crud, KubernetesCrudDispatcher.class, "crdProcessor");
            WithEventFields extractor = new WithEventFields();
            for (var method : KubernetesAttributesExtractor.class.getMethods()) {
                if (method.getName().equals("setCustomResourceDefinitionProcessor")) {
                    method.invoke(extractor, processor);
                }
            }
            write(crud, KubernetesCrudDispatcher.class, "kubernetesAttributesExtractor", extractor);
            write(crud, CrudDispatcher.class, "attributeExtractor", extractor);
            Object post = read(crud, KubernetesCrudDispatcher.class, "postHandler");
            write(post, PostHandler.class, "attributeExtractor", extractor);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the mock API server's insides changed: " + e, e);
        }
    }

    private static Object read(Object owner, Class<?> type, String name)
            throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(owner);
    }

    private static void write(Object owner, Class<?> type, String name, Object value)
            throws ReflectiveOperationException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        field.set(owner, value);
    }

    /** The mock's attributes of an object, and for an Event the fields it is selected by. */
    private static final class WithEventFields extends KubernetesAttributesExtractor {
        @Override
        public AttributeSet extract(HasMetadata resource) {
            AttributeSet attributes = super.extract(resource);
            if (!"Event".equals(resource.getKind())) {
                return attributes;
            }
            if (!(resource instanceof GenericKubernetesResource event)) {
                return attributes;
            }
            attributes = add(attributes, "reason", event.get("reason"));
            attributes = add(attributes, "type", event.get("type"));
            attributes =
                    add(attributes, "involvedObject.kind", event.get("involvedObject", "kind"));
            attributes =
                    add(attributes, "involvedObject.name", event.get("involvedObject", "name"));
            return attributes;
        }

        private static AttributeSet add(AttributeSet attributes, String key, Object value) {
            return value == null
                    ? attributes
                    : attributes.add(new Attribute(key, value.toString()));
        }
    }
}
