package io.tcpload.operator.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Queue;

/**
 * The mock API server as a real one answers a JSON Patch whose {@code test} of {@code
 * /metadata/resourceVersion} fails: 422, nothing written. The mock applies the test too, but its
 * failure escapes as an unhandled exception and the request is never answered; a real server's
 * optimistic locking by patch would thus be untestable.
 */
final class GuardedPatches extends KubernetesMixedDispatcher {
    private static final ObjectMapper JSON = new ObjectMapper();

    GuardedPatches(Map<ServerRequest, Queue<ServerResponse>> expectations) {
        super(expectations);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (!"PATCH".equals(request.getMethod())) {
            return super.dispatch(request);
        }
        // Reading the body consumes it: the request is passed on as a copy.
        String body = request.getUtf8Body();
        RecordedRequest copy =
                new RecordedRequest(
                        request.getHttpVersion(),
                        request.method(),
                        request.getPath(),
                        request.getHeaders(),
                        new Buffer(
                                body == null
                                        ? new byte[0]
                                        : body.getBytes(StandardCharsets.UTF_8)));
        String expected = testedVersion(body);
        if (expected == null) {
            return super.dispatch(copy);
        }
        String path = request.getPath();
        String object = path.endsWith("/status") ? path.substring(0, path.length() - 7) : path;
        MockResponse current =
                super.dispatch(
                        new RecordedRequest(
                                "HTTP/1.1",
                                HttpMethod.GET,
                                object,
                                request.getHeaders(),
                                new Buffer()));
        String actual = null;
        try {
            if (current.code() == 200) {
                actual =
                        JSON.readTree(current.getBody().getBytes())
                                .path("metadata")
                                .path("resourceVersion")
                                .asText(null);
            }
        } catch (IOException e) {
            actual = null;
        }
        if (!expected.equals(actual)) {
            return new MockResponse()
                    .setResponseCode(422)
                    .setBody(
                            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                                    + "\"reason\":\"Invalid\",\"code\":422,\"message\":\"the"
                                    + " test of /metadata/resourceVersion failed: "
                                    + actual
                                    + "\"}");
        }
        return super.dispatch(copy);
    }

    /** The resourceVersion a JSON Patch tests, or null when it tests none. */
    private static String testedVersion(String body) {
        if (body == null || !body.strip().startsWith("[")) {
            return null;
        }
        try {
            for (JsonNode op : JSON.readTree(body.getBytes(StandardCharsets.UTF_8))) {
                if ("test".equals(op.path("op").asText())
                        && "/metadata/resourceVersion".equals(op.path("path").asText())) {
                    return op.path("value").asText();
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }
}
