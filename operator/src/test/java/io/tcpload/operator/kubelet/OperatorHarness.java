package io.tcpload.operator.kubelet;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.tcpload.operator.OperatorMain;
import io.tcpload.operator.OperatorSettings;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The operator's integration-test world, all in this process: the fabric8 mock API server in CRUD
 * mode with the generated CRD, the real operator wired as {@link OperatorMain} wires it, the
 * kubelet double, and a demo target on 127.0.0.1 for the runners to load.
 *
 * <p>The mock server is CRUD for every resource, and also answers the expectations a test sets
 * ({@code server.expect()}) before that: for APIs with logic beyond storing objects, which the CRUD
 * mode cannot play (access reviews).
 */
public final class OperatorHarness implements AutoCloseable {
    /** The demo target's profile; {@code PORT} is replaced by the target's port. */
    public static final String PROFILE_TEMPLATE =
            String.join(
                    "\n",
                    "[common]",
                    "host = 127.0.0.1",
                    "port = PORT",
                    "[request]",
                    "req_body = <req><trace>$(TRACE)</trace></req>",
                    "[response]",
                    "rsp_code_type = xml",
                    "rsp_code_location_tag = <retCode>",
                    "rsp_code_success = 000000",
                    "[parameters]",
                    "TRACE = COUNTER, 1, 99999999, 1, %08ld",
                    "");

    public final KubernetesMockServer server;
    public final KubernetesClient client;

    /**
     * The operator's own client: its requests carry {@link #OPERATOR_AGENT}, so that what the
     * operator asks of the API server can be told from what the tests and the double ask.
     */
    public final KubernetesClient operatorClient;

    public static final String OPERATOR_AGENT = "tcpload-operator-under-test";

    private final List<ApiRequest> operatorRequests = new CopyOnWriteArrayList<>();
    public final KubeletDouble kubelet;
    public final OperatorSettings settings;
    public final String profile;
    private final DemoServer target;
    private OperatorMain operator;

    /** The world with its operator running. */
    public OperatorHarness(Path workDir) throws Exception {
        this(workDir, true);
    }

    /**
     * The world; with {@code startOperator} false, no operator runs, and the test starts its own
     * ({@link OperatorMain#start}).
     */
    public OperatorHarness(Path workDir, boolean startOperator) throws Exception {
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        KubernetesMixedDispatcher dispatcher = new GuardedPatches(expectations);
        EventFieldSelectors.teach(dispatcher);
        server =
                new KubernetesMockServer(
                        new Context(), new MockWebServer(), expectations, dispatcher, false);
        server.init();
        client = server.createClient();
        operatorClient =
                new KubernetesClientBuilder()
                        .withConfig(
                                new ConfigBuilder(client.getConfiguration())
                                        .withUserAgent(OPERATOR_AGENT)
                                        .build())
                        .build();
        try (InputStream crd = Files.newInputStream(crdFile())) {
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(
                            client.getKubernetesSerialization()
                                    .unmarshal(crd, CustomResourceDefinition.class))
                    .create();
        }
        String withoutPort = PROFILE_TEMPLATE.replace("PORT", "1");
        target =
                DemoServer.start(
                        ProfileLoader.parse(withoutPort, workDir.resolve("demo.ini")).profile(),
                        new ServeOptions("127.0.0.1", 0, 0.0, 0, 1));
        profile = PROFILE_TEMPLATE.replace("PORT", Integer.toString(target.port()));
        settings = new OperatorSettings(Set.of(), "tcpload-runner:test", freePort(), false, "", 0);
        kubelet =
                new KubeletDouble(client, Files.createDirectories(workDir.resolve("pods"))).start();
        operator = startOperator ? OperatorMain.start(operatorClient, settings) : null;
    }

    /** The running operator. */
    public OperatorMain operator() {
        return operator;
    }

    /** Creates namespace {@code name} in the mock API server and returns its name. */
    public String createNamespace(String name) {
        client.namespaces()
                .resource(
                        new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .build())
                .create();
        return name;
    }

    /** Stops the operator and starts a new one, as a pod restart would. */
    public void restartOperator() throws IOException {
        operator.close();
        operator = OperatorMain.start(operatorClient, settings);
    }

    /** One request the operator made: its method and path, query included. */
    public record ApiRequest(String method, String path) {
        /** The resource it was on: {@code pods}, {@code jobs}, {@code tcploadtests/status}... */
        public String resource() {
            String plain = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
            String[] parts = plain.split("/");
            // .../namespaces/NS/RESOURCE[/NAME[/SUBRESOURCE]] or .../RESOURCE[/NAME]
            int at = -1;
            for (int i = 0; i < parts.length; i++) {
                if (parts[i].equals("namespaces") && i + 2 < parts.length) {
                    at = i + 2;
                }
            }
            if (at < 0) {
                at = parts.length - 1;
                while (at > 0 && !parts[at - 1].matches("v[0-9].*")) {
                    at--;
                }
            }
            String resource = parts[at];
            if (at + 2 < parts.length) {
                resource += "/" + parts[at + 2];
            }
            return resource;
        }

        /** Whether it is a watch (a long-lived request, not a poll). */
        public boolean watch() {
            return path.contains("watch=true");
        }
    }

    /** Every request the operator's client has made so far, in order. */
    public List<ApiRequest> operatorRequests() {
        drain();
        return List.copyOf(operatorRequests);
    }

    /** Forgets the operator's requests so far. */
    public void clearOperatorRequests() {
        drain();
        operatorRequests.clear();
    }

    private synchronized void drain() {
        try {
            RecordedRequest request;
            while ((request = server.takeRequest(0, TimeUnit.MILLISECONDS)) != null) {
                String agent = request.getHeader("User-Agent");
                if (agent != null && agent.startsWith(OPERATOR_AGENT)) {
                    operatorRequests.add(new ApiRequest(request.getMethod(), request.getPath()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Path crdFile() {
        Path here = Path.of("").toAbsolutePath();
        for (Path dir = here; dir != null; dir = dir.getParent()) {
            Path crd = dir.resolve("crds/tcploadtests.tcpload.io-v1.yml");
            if (Files.exists(crd)) {
                return crd;
            }
        }
        throw new IllegalStateException(
                "crds/tcploadtests.tcpload.io-v1.yml not found above " + here);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (operator != null) {
            operator.close();
        }
        kubelet.close();
        target.close();
        operatorClient.close();
        client.close();
        server.destroy();
    }
}
