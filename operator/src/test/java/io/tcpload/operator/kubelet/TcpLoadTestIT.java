package io.tcpload.operator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.crd.ClientCertificate;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.DryRunExchange;
import io.tcpload.operator.crd.DryRunStatus;
import io.tcpload.operator.crd.KeySource;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.RequestSummary;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.SecretKey;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.operator.local.TestFile;
import io.tcpload.operator.reconciler.TcpLoadTestReconciler;
import io.tcpload.operator.status.StatusComputer;
import io.tcpload.operator.validation.KeyContents;
import io.tcpload.runner.profile.ImmutableBytes;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.ProfileLoader;
import io.tcpload.runner.profile.TlsSpec.PemFile;
import io.tcpload.runner.report.JsonResult;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.serve.ServeTls;
import io.tcpload.runner.stats.Histograms;
import io.tcpload.runner.stats.RunSummary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real operator against the mock API server, with the kubelet double running real runners
 * against a loopback demo target. Each scenario has its own namespace.
 */
class TcpLoadTestIT {
    private static final Duration RUN_BOUND = Duration.ofSeconds(30);
    private static final AtomicInteger NAMESPACES = new AtomicInteger();

    @TempDir static Path workDir;
    private static OperatorHarness world;

    @BeforeAll
    static void startWorld() throws Exception {
        world = new OperatorHarness(workDir);
    }

    @AfterAll
    static void stopWorld() {
        if (world != null) {
            world.close();
        }
    }

    static String newNamespace() {
        return world.createNamespace("load-" + NAMESPACES.incrementAndGet());
    }

    static TcpLoadTestSpec spec(int runners) {
        TcpLoadTestSpec spec = new TcpLoadTestSpec();
        spec.setProfile(world.profile);
        spec.setRunners(runners);
        spec.setThreads(1);
        spec.setConnections(2 * runners);
        spec.setDuration("2s");
        spec.setStartTimeoutSeconds(20);
        return spec;
    }

    static TcpLoadTest create(String namespace, String name, TcpLoadTestSpec spec) {
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        test.setSpec(spec);
        return world.client
                .resources(TcpLoadTest.class)
                .inNamespace(namespace)
                .resource(test)
                .create();
    }

    static TcpLoadTest get(String namespace, String name) {
        return world.client
                .resources(TcpLoadTest.class)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    static TcpLoadTestStatus awaitPhase(String namespace, String name, Phase phase) {
        await().atMost(RUN_BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            TcpLoadTest test = get(namespace, name);
                            return test.getStatus() != null && test.getStatus().getPhase() == phase;
                        });
        return get(namespace, name).getStatus();
    }

    static TcpLoadTestStatus awaitFinished(String namespace, String name) {
        await().atMost(RUN_BOUND)
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            TcpLoadTest test = get(namespace, name);
                            return test.getStatus() != null
                                    && test.getStatus().getPhase() != null
                                    && test.getStatus().getPhase().finished();
                        });
        return get(namespace, name).getStatus();
    }

    static Condition condition(TcpLoadTestStatus status, String type) {
        return status.getConditions().stream()
                .filter(c -> c.getType().equals(type))
                .findFirst()
                .orElseThrow();
    }

    static List<String> eventReasons(String namespace) {
        return world.client.v1().events().inNamespace(namespace).list().getItems().stream()
                .map(io.fabric8.kubernetes.api.model.Event::getReason)
                .toList();
    }

    @Test
    void oneRunnerRunsItsTestToSuccessWithTheWholeReport() {
        String namespace = newNamespace();
        create(namespace, "single", spec(1));

        TcpLoadTestStatus status = awaitFinished(namespace, "single");

        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(status.getSummary().getRequests()).isPositive();
        assertThat(status.getSummary().getSuccesses()).isEqualTo(status.getSummary().getRequests());
        assertThat(status.getSummary().getLatency().getP99Ms()).isPositive();
        assertThat(status.getRunners())
                .singleElement()
                .satisfies(row -> assertThat(row.getStartTime()).isNotNull());
        assertThat(status.getStartSkewMs()).isZero();
        assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getStatus()).isEqualTo("True");
        // What kstatus-based tools (Flux, Argo CD, kubectl wait) read.
        assertThat(condition(status, StatusComputer.READY).getStatus())
                .as("%s", status.getConditions())
                .isEqualTo("True");
        assertThat(condition(status, StatusComputer.RECONCILING).getStatus()).isEqualTo("False");
        assertThat(condition(status, StatusComputer.STALLED).getStatus()).isEqualTo("False");
        assertThat(status.getObservedGeneration())
                .isEqualTo(get(namespace, "single").getMetadata().getGeneration());
        assertThat(status.getConditions())
                .allSatisfy(c -> assertThat(c.getObservedGeneration()).isNotNull());
        assertThat(get(namespace, "single").getMetadata().getFinalizers())
                .as("no finalizer")
                .isNullOrEmpty();
        await().atMost(RUN_BOUND)
                .until(
                        () ->
                                eventReasons(namespace)
                                        .containsAll(
                                                List.of(
                                                        "RunnersCreated",
                                                        "RunnersReady",
                                                        "Started",
                                                        "Succeeded")));
    }

    @Test
    void threeRunnersMergeTheirHistogramsExactly() {
        String namespace = newNamespace();
        create(namespace, "trio", spec(3));

        TcpLoadTestStatus status = awaitFinished(namespace, "trio");

        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(status.getRunners()).hasSize(3);
        await().atMost(RUN_BOUND).until(() -> resultsOf(namespace, "trio").size() == 3);
        Histogram union = Histograms.create();
        long requests = 0;
        for (RunSummary runner : resultsOf(namespace, "trio")) {
            union.add(runner.latencyUs());
            requests += runner.counts().requests();
        }
        assertThat(status.getSummary().getRequests()).isEqualTo(requests);
        assertThat(status.getSummary().getLatency().getP50Ms())
                .isEqualTo(union.getValueAtPercentile(50) / 1000.0);
        assertThat(status.getSummary().getLatency().getP99Ms())
                .isEqualTo(union.getValueAtPercentile(99) / 1000.0);
        assertThat(status.getSummary().getLatency().getP9999Ms())
                .isEqualTo(union.getValueAtPercentile(99.99) / 1000.0);
        assertThat(status.getStartSkewMs()).isNotNull().isLessThan(50);
    }

    /** A 70/20/10 mix against the recording target, each request's body its name. */
    static String mixProfile(int port) {
        return String.join(
                        "\n",
                        "[common]",
                        "host = 127.0.0.1",
                        "port = " + port,
                        "[request.authorise]",
                        "weight = 7",
                        "req_body = authorise",
                        "[request.balance]",
                        "weight = 2",
                        "req_body = balance",
                        "[request.reversal]",
                        "weight = 1",
                        "req_body = reversal",
                        "")
                + RecordingTarget.PROFILE_RESPONSE;
    }

    @Test
    void twoRunnersOfAMixCountEachRequestNameAsTheTargetDid() throws Exception {
        String namespace = newNamespace();
        int answered = 300;
        try (RecordingTarget target = new RecordingTarget(answered)) {
            TcpLoadTestSpec spec = spec(2);
            spec.setProfile(mixProfile(target.port()));
            spec.setKeepAlive(true);
            create(namespace, "mix", spec);

            TcpLoadTestStatus status = awaitFinished(namespace, "mix");

            assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
            assertThat(target.received())
                    .as("the runners sent past the cap")
                    .isGreaterThan(answered);
            Map<String, Long> counted = new LinkedHashMap<>();
            target.bodies().forEach(body -> counted.merge(body, 1L, Long::sum));
            List<RequestSummary> rows = status.getSummary().getByRequest();
            assertThat(rows)
                    .extracting(RequestSummary::getName)
                    .containsExactly("authorise", "balance", "reversal");
            for (RequestSummary row : rows) {
                assertThat(row.getRequests())
                        .as(row.getName())
                        .isEqualTo(counted.get(row.getName()));
                assertThat(row.getSuccesses()).as(row.getName()).isEqualTo(row.getRequests());
                assertThat(row.getP99Ms()).as(row.getName()).isPositive();
            }
            assertThat(status.getSummary().getRequests()).isEqualTo(answered);
            // Each name's percentiles are those of its responses on both runners together.
            await().atMost(RUN_BOUND).until(() -> resultsOf(namespace, "mix").size() == 2);
            Histogram balance = Histograms.create();
            for (RunSummary runner : resultsOf(namespace, "mix")) {
                balance.add(runner.byRequest().get(1).latencyUs());
            }
            assertThat(rows.get(1).getP99Ms()).isEqualTo(balance.getValueAtPercentile(99) / 1000.0);
        }
    }

    @Test
    void thresholdsNamingRequestsAreJudgedOnTheirOwnRows() throws Exception {
        String namespace = newNamespace();
        try (RecordingTarget target = new RecordingTarget()) {
            TcpLoadTestSpec spec = spec(2);
            spec.setProfile(mixProfile(target.port()));
            spec.setKeepAlive(true);
            spec.setThresholds(
                    List.of(
                            "p99{request=balance} < 30s",
                            "successRatio{request=authorise} >= 0.99",
                            "tps{request=reversal} >= 1000000000"));
            create(namespace, "mix-judged", spec);

            TcpLoadTestStatus status = awaitFinished(namespace, "mix-judged");

            assertThat(status.getPhase()).isEqualTo(Phase.Failed);
            Condition met = condition(status, TcpLoadTestStatus.THRESHOLDS_MET);
            assertThat(met.getReason()).isEqualTo("ThresholdsMissed");
            assertThat(met.getMessage())
                    .contains("tps{request=reversal} >= 1000000000: measured ")
                    .doesNotContain("balance")
                    .doesNotContain("authorise");
        }
    }

    @Test
    void aThresholdNamingARequestTheProfileLacksFailsAtOnceNamingTheFieldAndTheName() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setProfile(mixProfile(9));
        spec.setThresholds(List.of("p99 < 1s", "p99{request=transfer} < 200ms"));
        create(namespace, "mix-unknown", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "mix-unknown");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition valid = condition(status, TcpLoadTestStatus.PROFILE_VALID);
        assertThat(valid.getReason()).isEqualTo("InvalidSpec");
        assertThat(valid.getMessage())
                .startsWith("spec.thresholds[1]: 'p99{request=transfer} < 200ms' names the request")
                .contains("'transfer'")
                .contains("its requests are authorise, balance, reversal");
        assertThat(status.getMessage()).contains("spec.thresholds[1]").contains("'transfer'");
        assertThat(world.client.batch().v1().jobs().inNamespace(namespace).list().getItems())
                .isEmpty();
    }

    /**
     * A dry run of a two-request mix carrying a PIN from a Secret variable and a card number from a
     * Secret file, against the recording target; {@code extra} is added to the profile.
     */
    private static TcpLoadTestSpec dryRunSpec(String namespace, int port, String extra) {
        String profile =
                String.join(
                                "\n",
                                "[common]",
                                "host = 127.0.0.1",
                                "port = " + port,
                                "[request.authorise]",
                                "req_body = authorise;pin=$(PIN)",
                                "[request.balance]",
                                "req_body = balance;card=$(CARD)",
                                "[parameters]",
                                "PIN = ENV, TEST_PIN",
                                "CARD = FILE, cards.txt",
                                "")
                        + RecordingTarget.PROFILE_RESPONSE
                        + extra;
        createSecret(
                namespace, "dry-credentials", Map.of("cards", "card-Qx81\n", "pin", "pin-Zr5w"));
        TcpLoadTestSpec spec = spec(2);
        spec.setProfile(profile);
        spec.setDryRun(true);
        spec.setFiles(
                List.of(
                        DataFile.fromSecret(
                                "cards.txt", new SecretKey("dry-credentials", "cards"))));
        RunnerPodSettings runner = new RunnerPodSettings();
        runner.setEnv(List.of(secretVariable("TEST_PIN", "dry-credentials", "pin")));
        spec.setRunner(runner);
        return spec;
    }

    private static String hex(String text) {
        return java.util.HexFormat.of().formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aDryRunSendsEachRequestOnceOnOnePodAndWritesTheExchangeMasked() throws Exception {
        String namespace = newNamespace();
        try (RecordingTarget target = new RecordingTarget()) {
            create(namespace, "dry", dryRunSpec(namespace, target.port(), ""));

            TcpLoadTestStatus status = awaitFinished(namespace, "dry");

            assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
            assertThat(target.bodies())
                    .as("each request once, with the real values")
                    .containsExactly("authorise;pin=pin-Zr5w", "balance;card=card-Qx81");
            assertThat(world.kubelet.podNames("dry-runners")).hasSize(1);
            DryRunStatus dryRun = status.getDryRun();
            assertThat(dryRun.getRequests()).isEqualTo(2);
            assertThat(dryRun.getSuccesses()).isEqualTo(2);
            assertThat(dryRun.getMasked()).containsExactly("PIN (ENV)", "CARD (FILE cards.txt)");
            assertThat(dryRun.getExchanges())
                    .extracting(DryRunExchange::getName)
                    .containsExactly("authorise", "balance");
            DryRunExchange authorise = dryRun.getExchanges().get(0);
            assertThat(authorise.getVerdict()).isEqualTo("success");
            assertThat(authorise.getRequestBytes()).isEqualTo(8 + 22);
            assertThat(authorise.getRequest())
                    .isEqualTo(hex("00000022authorise;pin=") + "**".repeat(8));
            assertThat(authorise.getResponse()).isEqualTo(hex("00000006000000"));
            assertThat(authorise.getCode()).isEqualTo("000000");
            assertThat(authorise.getFraming()).contains("\"00000006\" = 6");
            assertThat(dryRun.getExchanges().get(1).getRequest())
                    .isEqualTo(hex("00000022balance;card=") + "**".repeat(9));
            assertThat(status.getMessage())
                    .isEqualTo(
                            "Dry run against 127.0.0.1:"
                                    + target.port()
                                    + ": 2 of 2 responses a success.");
            assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getReason())
                    .isEqualTo("DryRun");
            var json = world.client.getKubernetesSerialization();
            assertThat(json.asJson(get(namespace, "dry")))
                    .as("no credential in the test")
                    .doesNotContain("pin-Zr5w")
                    .doesNotContain("card-Qx81")
                    .doesNotContain(hex("pin-Zr5w"))
                    .doesNotContain(hex("card-Qx81"));
            assertThat(status.getSummary()).isNull();
        }
    }

    /**
     * {@link #dryRunSpec} with a sign-on first, whose response hands out a session that the
     * authorisation then carries.
     */
    private static TcpLoadTestSpec signOnDryRunSpec(String namespace, int port) {
        TcpLoadTestSpec spec =
                dryRunSpec(
                        namespace,
                        port,
                        String.join(
                                "\n",
                                "[request.signon]",
                                "sign_on = true",
                                "req_body = signon",
                                "[response.signon]",
                                "rsp_extract = SESSION, fixed, body, 7 9",
                                ""));
        spec.setProfile(
                spec.getProfile()
                        .replace(
                                "req_body = authorise;pin=$(PIN)",
                                "req_body = authorise;pin=$(PIN);s=$(SESSION)"));
        return spec;
    }

    @Test
    void aDryRunMasksAValueCarriedFromAResponseUnlessTheSpecShowsValues() throws Exception {
        String namespace = newNamespace();
        try (RecordingTarget target = new RecordingTarget()) {
            create(namespace, "dry-session", signOnDryRunSpec(namespace, target.port()));
            String other = newNamespace();
            TcpLoadTestSpec showing = signOnDryRunSpec(other, target.port());
            showing.setDryRunShowValues(true);
            create(other, "dry-shown", showing);

            TcpLoadTestStatus masked = awaitFinished(namespace, "dry-session");
            TcpLoadTestStatus shown = awaitFinished(other, "dry-shown");

            assertThat(masked.getPhase()).as(masked.getMessage()).isEqualTo(Phase.Succeeded);
            assertThat(shown.getPhase()).as(shown.getMessage()).isEqualTo(Phase.Succeeded);
            String session = RecordingTarget.SESSION;
            assertThat(target.bodies())
                    .as("the session carried, with the real values, by both tests")
                    .containsOnly(
                            "signon",
                            "authorise;pin=pin-Zr5w;s=" + session,
                            "balance;card=card-Qx81")
                    .hasSize(8);

            DryRunStatus dryRun = masked.getDryRun();
            assertThat(dryRun.getMasked())
                    .containsExactly("PIN (ENV)", "CARD (FILE cards.txt)", "SESSION (extracted)");
            assertThat(dryRun.getExchanges())
                    .extracting(DryRunExchange::getName)
                    // Without keep-alive each request signs on again on its own connection.
                    .containsExactly("signon", "authorise", "signon", "balance");
            DryRunExchange signOn = dryRun.getExchanges().get(0);
            assertThat(signOn.getResponse()).isEqualTo(hex("00000015000000") + "**".repeat(9));
            assertThat(signOn.getExtracted()).hasSize(1);
            assertThat(signOn.getExtracted().get(0).getName()).isEqualTo("SESSION");
            assertThat(signOn.getExtracted().get(0).getBytes()).isEqualTo(9);
            assertThat(signOn.getExtracted().get(0).getValue()).isEqualTo("**".repeat(9));
            assertThat(dryRun.getExchanges().get(1).getRequest())
                    .isEqualTo(
                            hex("00000034authorise;pin=")
                                    + "**".repeat(8)
                                    + hex(";s=")
                                    + "**".repeat(9));
            var json = world.client.getKubernetesSerialization();
            assertThat(json.asJson(get(namespace, "dry-session")))
                    .as("no credential and no session in the test")
                    .doesNotContain("pin-Zr5w")
                    .doesNotContain(hex("pin-Zr5w"))
                    .doesNotContain(session)
                    .doesNotContain(hex(session));

            DryRunStatus open = shown.getDryRun();
            assertThat(open.getMasked()).isEmpty();
            assertThat(open.getExchanges().get(0).getExtracted().get(0).getValue())
                    .isEqualTo(hex(session));
            assertThat(open.getExchanges().get(1).getRequest())
                    .isEqualTo(hex("00000034authorise;pin=pin-Zr5w;s=" + session));
            assertThat(open.getExchanges().get(3).getRequest())
                    .isEqualTo(hex("00000022balance;card=card-Qx81"));
        }
    }

    @Test
    void aDryRunWithAFailedResponseFailsTheTestNamingTheRequestAndItsCode() throws Exception {
        String namespace = newNamespace();
        try (RecordingTarget target = new RecordingTarget()) {
            create(
                    namespace,
                    "dry-fails",
                    dryRunSpec(
                            namespace,
                            target.port(),
                            "[response.balance]\nrsp_code_success = 999999\n"));

            TcpLoadTestStatus status = awaitFinished(namespace, "dry-fails");

            assertThat(status.getPhase()).isEqualTo(Phase.Failed);
            assertThat(status.getMessage())
                    .endsWith(": 1 of 2 responses a success; failed: balance (code \"000000\").");
            assertThat(condition(status, StatusComputer.STALLED).getReason())
                    .isEqualTo("DryRunFailed");
            assertThat(status.getDryRun().getExchanges())
                    .extracting(DryRunExchange::getVerdict)
                    .containsExactly("success", "failure");
            await().atMost(RUN_BOUND).until(() -> eventReasons(namespace).contains("DryRunFailed"));
        }
    }

    @Test
    void aDryRunAgainstNothingListeningFailsWithEachRequestsError() throws Exception {
        String namespace = newNamespace();
        int closedPort;
        try (java.net.ServerSocket probe =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        create(namespace, "dry-nothing", dryRunSpec(namespace, closedPort, ""));

        TcpLoadTestStatus status = awaitFinished(namespace, "dry-nothing");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getDryRun().getSuccesses()).isZero();
        assertThat(status.getDryRun().getExchanges())
                .allSatisfy(
                        exchange ->
                                assertThat(exchange.getError())
                                        .startsWith("connect to ")
                                        .contains("127.0.0.1:" + closedPort));
    }

    static List<RunSummary> resultsOf(String namespace, String test) {
        String prefix = test + "-runners-";
        return world.kubelet.results().entrySet().stream()
                .filter(e -> e.getKey().startsWith(prefix))
                .map(e -> JsonResult.read(e.getValue()))
                .toList();
    }

    @Test
    void anInvalidProfileFailsAtOnceAndCreatesNoJob() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setProfile(world.profile.replace("rsp_code_type = xml", "rsp_code_type = yaml"));
        create(namespace, "broken", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "broken");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition valid = condition(status, TcpLoadTestStatus.PROFILE_VALID);
        assertThat(valid.getStatus()).isEqualTo("False");
        assertThat(valid.getMessage())
                .startsWith("spec.profile: line 7: rsp_code_type: must be fixed or json or xml");
        assertThat(world.client.batch().v1().jobs().inNamespace(namespace).list().getItems())
                .isEmpty();
        await().atMost(RUN_BOUND).until(() -> eventReasons(namespace).contains("InvalidSpec"));
    }

    @Test
    void aRunnerNeverReadyFailsTheTestAtTheDeadlineWithThePodsReason() {
        String namespace = newNamespace();
        world.kubelet.behaving(
                (job, index) ->
                        job.getMetadata().getNamespace().equals(namespace) && index == 1
                                ? PodBehaviour.neverReady("ImagePullBackOff")
                                : PodBehaviour.NORMAL);
        TcpLoadTestSpec spec = spec(2);
        spec.setStartTimeoutSeconds(2);
        create(namespace, "stuck", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "stuck");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith(
                        "1 of 2 runners were not ready within 2 s: runner 1 (pod stuck-runners-1-")
                .contains("ImagePullBackOff: Back-off pulling image");
        assertThat(condition(status, TcpLoadTestStatus.RUNNERS_READY).getReason())
                .isEqualTo("StartTimeout");
        await().atMost(RUN_BOUND)
                .until(
                        () ->
                                world.client
                                        .batch()
                                        .v1()
                                        .jobs()
                                        .inNamespace(namespace)
                                        .list()
                                        .getItems()
                                        .isEmpty());
        await().atMost(RUN_BOUND).until(() -> eventReasons(namespace).contains("StartTimeout"));
    }

    @Test
    void runnerPodsTheClusterRefusesFailTheTestInSecondsWithItsMessage() {
        String namespace = newNamespace();
        world.kubelet.behaving(
                (job, index) ->
                        job.getMetadata().getNamespace().equals(namespace)
                                ? PodBehaviour.refused(
                                        "violates PodSecurity \"restricted:latest\":"
                                                + " seccompProfile")
                                : PodBehaviour.NORMAL);
        TcpLoadTestSpec spec = spec(2);
        spec.setStartTimeoutSeconds(300);
        create(namespace, "refused", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "refused");

        assertThat(status.getPhase()).as("%s", status.getConditions()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith(
                        "The cluster refused the runner pods: Job refused-runners: FailedCreate")
                .contains("violates PodSecurity \"restricted:latest\"");
        assertThat(condition(status, TcpLoadTestStatus.RUNNERS_READY).getReason())
                .isEqualTo("RunnersRefused");
        assertThat(condition(status, StatusComputer.STALLED).getStatus()).isEqualTo("True");
        assertThat(condition(status, StatusComputer.STALLED).getReason())
                .isEqualTo("RunnersRefused");
    }

    @Test
    void aContainerThatCanNeverStartFailsTheTestAtOnce() {
        String namespace = newNamespace();
        world.kubelet.behaving(
                (job, index) ->
                        job.getMetadata().getNamespace().equals(namespace)
                                ? PodBehaviour.neverReady("InvalidImageName")
                                : PodBehaviour.NORMAL);
        TcpLoadTestSpec spec = spec(1);
        spec.setStartTimeoutSeconds(300);
        create(namespace, "badimage", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "badimage");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith("Runner 0 (pod badimage-runners-0-")
                .contains("cannot start: InvalidImageName");
    }

    @Test
    void aConfigMapTheSpecNamesThatDoesNotExistFailsTheTestAtOnce() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setProfile(null);
        spec.setProfileFrom(ProfileSource.configMap("no-such-profiles", "bank.ini"));
        create(namespace, "nomap", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "nomap");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .isEqualTo(
                        "spec.profileFrom: ConfigMap 'no-such-profiles' does not exist in"
                                + " namespace '"
                                + namespace
                                + "'.");
        assertThat(world.client.batch().v1().jobs().inNamespace(namespace).list().getItems())
                .isEmpty();
    }

    /** A Secret as a real API server returns it: {@code data} only, base64. */
    static void createSecret(String namespace, String name, Map<String, String> texts) {
        Map<String, String> data = new LinkedHashMap<>();
        texts.forEach(
                (key, text) ->
                        data.put(
                                key,
                                Base64.getEncoder()
                                        .encodeToString(text.getBytes(StandardCharsets.UTF_8))));
        world.client
                .secrets()
                .inNamespace(namespace)
                .resource(
                        new SecretBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withData(data)
                                .build())
                .create();
    }

    @Test
    void aProfileFileAndVariableFromSecretsReachTheWireAndTheOperatorNeverReadsSecrets()
            throws Exception {
        String namespace = newNamespace();
        try (RecordingTarget target = new RecordingTarget()) {
            String profile =
                    String.join(
                                    "\n",
                                    "[common]",
                                    "host = 127.0.0.1",
                                    "port = " + target.port(),
                                    "[request]",
                                    "req_body = pin=$(PIN);card=$(CARD)",
                                    "[parameters]",
                                    "PIN = ENV, TEST_PIN",
                                    "CARD = FILE, cards.txt",
                                    "")
                            + RecordingTarget.PROFILE_RESPONSE;
            createSecret(
                    namespace,
                    "bank-credentials",
                    Map.of(
                            "profile.ini",
                            profile,
                            "cards",
                            "card-Wz1\ncard-Wz2\n",
                            "pin",
                            "pin-Kq7x"));
            TcpLoadTestSpec spec = spec(1);
            spec.setProfile(null);
            spec.setProfileFrom(ProfileSource.secret("bank-credentials", "profile.ini"));
            spec.setFiles(
                    List.of(
                            DataFile.fromSecret(
                                    "cards.txt", new SecretKey("bank-credentials", "cards"))));
            RunnerPodSettings runner = new RunnerPodSettings();
            runner.setEnv(List.of(secretVariable("TEST_PIN", "bank-credentials", "pin")));
            spec.setRunner(runner);
            world.clearOperatorRequests();
            create(namespace, "secret", spec);

            TcpLoadTestStatus status = awaitFinished(namespace, "secret");

            assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
            assertThat(target.bodies())
                    .isNotEmpty()
                    .containsOnly("pin=pin-Kq7x;card=card-Wz1", "pin=pin-Kq7x;card=card-Wz2");
            assertThat(world.operatorRequests())
                    .as("the operator mounts Secrets and never reads one; it creates its own")
                    .filteredOn(r -> r.resource().equals("secrets"))
                    .allMatch(r -> r.method().equals("POST"));
            var json = world.client.getKubernetesSerialization();
            assertThat(json.asJson(get(namespace, "secret")))
                    .as("no credential in the test")
                    .doesNotContain("pin-Kq7x")
                    .doesNotContain("card-Wz1");
            assertThat(json.asJson(world.client.batch().v1().jobs().inNamespace(namespace).list()))
                    .as("nor in its Job")
                    .doesNotContain("pin-Kq7x")
                    .doesNotContain("card-Wz1");
        }
    }

    static EnvVar secretVariable(String name, String secret, String key) {
        return new EnvVarBuilder()
                .withName(name)
                .withNewValueFrom()
                .withNewSecretKeyRef()
                .withName(secret)
                .withKey(key)
                .endSecretKeyRef()
                .endValueFrom()
                .build();
    }

    @Test
    void aBadProfileInASecretFailsTheTestWithTheRunnersOwnMessage() {
        String namespace = newNamespace();
        createSecret(
                namespace,
                "bad-profile",
                Map.of(
                        "profile.ini",
                        world.profile.replace("rsp_code_type = xml", "rsp_code_type = yaml")));
        TcpLoadTestSpec spec = spec(1);
        spec.setProfile(null);
        spec.setProfileFrom(ProfileSource.secret("bad-profile", "profile.ini"));
        create(namespace, "badsecret", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "badsecret");

        // The operator cannot check what it never reads: the runner does, and its stderr tail is
        // the container's termination message.
        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage()).contains("exit code 2").contains("rsp_code_type");
    }

    /** A key of a ConfigMap or Secret of one of the repository's examples. */
    static String exampleKey(String example, String name, String key) throws Exception {
        TestFile file = TestFile.read(Path.of("..", "examples", example));
        return file.secrets().containsKey(name)
                ? KeyContents.of(file.secrets().get(name), key)
                : KeyContents.of(file.configMaps().get(name), key);
    }

    /**
     * The TLS example as a cluster runs it: its CA ConfigMap and client Secret mounted through
     * spec.tls into the runner pod, against the demo target's TLS container (the example's server
     * certificate, client certificates required), here on loopback.
     */
    @Test
    void theTlsExampleRunsWithSpecTlsAgainstATargetThatRequiresItsClientCertificate()
            throws Exception {
        String namespace = newNamespace();
        TestFile example = TestFile.read(Path.of("..", "examples", "tls.yaml"));
        TcpLoadTestSpec spec = example.singleTest().getSpec();
        String serverKey = exampleKey("demo-target.yaml", "tcpload-demo-tls", "tls.key");
        ServeTls serveTls =
                new ServeTls(
                        Optional.of(
                                pem(
                                        "tls.crt",
                                        exampleKey(
                                                "demo-target.yaml",
                                                "tcpload-demo-tls",
                                                "tls.crt"))),
                        Optional.of(pem("tls.key", serverKey)),
                        Optional.empty(),
                        Optional.of(
                                pem(
                                        "ca.crt",
                                        exampleKey(
                                                "demo-target.yaml",
                                                "tcpload-demo-tls",
                                                "ca.crt"))));
        Profile served =
                ProfileLoader.parse(spec.getProfile(), workDir.resolve("tls.ini")).profile();
        try (DemoServer target =
                DemoServer.start(
                        served,
                        new ServeOptions("127.0.0.1", 0, 0.0, 0, 1)
                                .withTls(Optional.of(serveTls)))) {
            configMap(
                    namespace,
                    "tcpload-demo-ca",
                    Map.of("ca.crt", exampleKey("tls.yaml", "tcpload-demo-ca", "ca.crt")));
            String clientKey = exampleKey("tls.yaml", "tcpload-demo-client", "tls.key");
            createSecret(
                    namespace,
                    "tcpload-demo-client",
                    Map.of(
                            "tls.crt",
                            exampleKey("tls.yaml", "tcpload-demo-client", "tls.crt"),
                            "tls.key",
                            clientKey));
            spec.setTarget(new TargetOverride("127.0.0.1", target.port()));
            spec.setConnections(2);
            spec.setDuration("2s");
            spec.setStartTimeoutSeconds(20);
            world.clearOperatorRequests();
            create(namespace, "tls", spec);

            TcpLoadTestStatus status = awaitFinished(namespace, "tls");

            assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
            assertThat(status.getSummary().getSuccesses()).isPositive();
            assertThat(status.getSummary().getErrors().getTls()).isZero();
            assertThat(status.getSummary().getTlsHandshakeP99Ms()).isPositive();
            assertThat(target.requestsServed()).isPositive();
            assertThat(world.operatorRequests())
                    .as("the operator mounts the Secret and never reads one; it creates its own")
                    .filteredOn(r -> r.resource().equals("secrets"))
                    .allMatch(r -> r.method().equals("POST"));
            String keyLine = clientKey.lines().skip(1).findFirst().orElseThrow();
            var json = world.client.getKubernetesSerialization();
            assertThat(json.asJson(get(namespace, "tls"))).doesNotContain(keyLine);
            assertThat(json.asJson(world.client.batch().v1().jobs().inNamespace(namespace).list()))
                    .doesNotContain(keyLine);
            assertThat(json.asJson(world.client.v1().events().inNamespace(namespace).list()))
                    .doesNotContain(keyLine);
        }
    }

    static PemFile pem(String name, String text) {
        return new PemFile(name, ImmutableBytes.copyOf(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aClientCertificateSecretThatDoesNotExistFailsTheTestInSeconds() {
        TlsSettings tls = new TlsSettings();
        tls.setClientCertificate(new ClientCertificate("no-such-client"));
        assertTlsSourceMissingFailsAtOnce("notls", tls, "secret \"no-such-client\" not found");
    }

    @Test
    void aCaConfigMapThatDoesNotExistFailsTheTestAtOnce() {
        TlsSettings tls = new TlsSettings();
        tls.setCa(KeySource.configMap("no-such-ca", "ca.crt"));
        assertTlsSourceMissingFailsAtOnce("noca", tls, "configmap \"no-such-ca\" not found");
    }

    /** A test over TLS whose {@code tls} names a source that does not exist fails in seconds. */
    private static void assertTlsSourceMissingFailsAtOnce(
            String name, TlsSettings tls, String clusterSays) {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setProfile(world.profile.replace("[request]", "tls = true\n[request]"));
        spec.setTls(tls);
        spec.setStartTimeoutSeconds(300);
        create(namespace, name, spec);

        TcpLoadTestStatus status = awaitFinished(namespace, name);

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage()).contains(clusterSays);
    }

    @Test
    void aSecretTheSpecNamesThatDoesNotExistFailsTheTestInSeconds() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setProfile(null);
        spec.setProfileFrom(ProfileSource.secret("no-such-secret", "profile.ini"));
        spec.setStartTimeoutSeconds(300);
        create(namespace, "nosecret", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "nosecret");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage()).contains("secret \"no-such-secret\" not found");
    }

    @Test
    void aVariableFromAMissingSecretKeyFailsTheTestInSeconds() {
        String namespace = newNamespace();
        createSecret(namespace, "pins", Map.of("other", "1"));
        TcpLoadTestSpec spec = spec(1);
        spec.setStartTimeoutSeconds(300);
        RunnerPodSettings runner = new RunnerPodSettings();
        runner.setEnv(List.of(secretVariable("TEST_PIN", "pins", "pin")));
        spec.setRunner(runner);
        create(namespace, "nokey", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "nokey");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .contains("CreateContainerConfigError")
                .contains("couldn't find key pin in Secret " + namespace + "/pins");
    }

    @Test
    void extraVolumesAndEnvFromReachTheRunner() {
        String namespace = newNamespace();
        configMap(
                namespace,
                "runner-env",
                Map.of(
                        "TZ", "Asia/Shanghai",
                        "LOAD_TEAM", "payments",
                        // The operator's own variables win over envFrom, as env does in a pod.
                        "TCPLOAD_TEST", "not-this-one",
                        "not a variable", "skipped"));
        configMap(namespace, "target-ca", Map.of("ca.pem", "-----BEGIN CERTIFICATE-----\n"));
        TcpLoadTestSpec spec = spec(1);
        spec.getRunner().setEnvFrom(List.of(envFromConfigMap("runner-env")));
        spec.getRunner()
                .setVolumes(
                        List.of(
                                new VolumeBuilder()
                                        .withName("ca")
                                        .withNewConfigMap()
                                        .withName("target-ca")
                                        .endConfigMap()
                                        .build(),
                                new VolumeBuilder()
                                        .withName("scratch")
                                        .withNewEmptyDir()
                                        .endEmptyDir()
                                        .build()));
        spec.getRunner()
                .setVolumeMounts(
                        List.of(
                                new VolumeMountBuilder()
                                        .withName("ca")
                                        .withMountPath("/etc/ssl/target")
                                        .withReadOnly(true)
                                        .build(),
                                new VolumeMountBuilder()
                                        .withName("scratch")
                                        .withMountPath("/scratch")
                                        .build()));
        create(namespace, "mounted", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "mounted");

        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        String pod = status.getRunners().get(0).getPod();
        assertThat(world.kubelet.environment(pod))
                .containsEntry("TZ", "Asia/Shanghai")
                .containsEntry("LOAD_TEAM", "payments")
                .containsEntry("TCPLOAD_TEST", "mounted")
                .doesNotContainKey("not a variable");
        assertThat(world.kubelet.volumeDir(pod, "ca").resolve("ca.pem"))
                .hasContent("-----BEGIN CERTIFICATE-----");
        assertThat(world.kubelet.volumeDir(pod, "scratch")).isEmptyDirectory();
        PodSpec created = world.client.pods().inNamespace(namespace).withName(pod).get().getSpec();
        assertThat(created.getAutomountServiceAccountToken()).isFalse();
        assertThat(created.getContainers().get(0).getVolumeMounts())
                .extracting(VolumeMount::getMountPath)
                .containsExactly(
                        "/etc/tcpload/profile", "/results", "/tmp", "/etc/ssl/target", "/scratch");
    }

    @Test
    void anEnvFromConfigMapThatDoesNotExistFailsTheTestAtOnce() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setStartTimeoutSeconds(300);
        spec.getRunner().setEnvFrom(List.of(envFromConfigMap("no-such-env")));
        create(namespace, "envless", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "envless");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith("Runner 0 (pod envless-runners-0-")
                .endsWith(
                        "cannot start: CreateContainerConfigError: configmap \"no-such-env\" not"
                                + " found.");
    }

    static EnvFromSource envFromConfigMap(String name) {
        return new EnvFromSourceBuilder()
                .withNewConfigMapRef()
                .withName(name)
                .endConfigMapRef()
                .build();
    }

    /**
     * A runner that refuses what it was given exits 2; its last lines reach the test's message
     * through its termination message (FallbackToLogsOnError), here from an envFrom variable.
     */
    @Test
    void aRunnerThatExitsWithAnErrorLeavesItsLastLinesInTheTestsMessage() {
        String namespace = newNamespace();
        configMap(namespace, "bad-env", Map.of("TCPLOAD_RUNNER_INDEX", "x"));
        TcpLoadTestSpec spec = spec(1);
        spec.getRunner().setEnvFrom(List.of(envFromConfigMap("bad-env")));
        create(namespace, "refusing", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "refusing");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        assertThat(status.getMessage())
                .startsWith("Runner 0 (pod refusing-runners-0-")
                .contains("Error: exit code 2: ")
                .contains("tcpload-runner: TCPLOAD_RUNNER_INDEX must be a runner index (got 'x')");
    }

    static void configMap(String namespace, String name, Map<String, String> data) {
        world.client
                .configMaps()
                .inNamespace(namespace)
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withData(data)
                                .build())
                .create();
    }

    @Test
    void anEarlierOperatorsFinalizerIsRemovedSoTheTestCanBeDeleted() {
        String namespace = newNamespace();
        TcpLoadTest test = new TcpLoadTest();
        test.setMetadata(
                new ObjectMetaBuilder()
                        .withName("old")
                        .withNamespace(namespace)
                        .withFinalizers(TcpLoadTestReconciler.OLD_FINALIZER)
                        .build());
        test.setSpec(spec(1));
        world.client.resources(TcpLoadTest.class).inNamespace(namespace).resource(test).create();

        await().atMost(RUN_BOUND)
                .until(() -> get(namespace, "old").getMetadata().getFinalizers().isEmpty());
        world.client.resources(TcpLoadTest.class).inNamespace(namespace).withName("old").delete();
        await().atMost(RUN_BOUND).until(() -> get(namespace, "old") == null);
        // Its children go by their owner references, as the garbage collector deletes them.
        await().atMost(RUN_BOUND)
                .until(
                        () ->
                                world.client
                                                .batch()
                                                .v1()
                                                .jobs()
                                                .inNamespace(namespace)
                                                .list()
                                                .getItems()
                                                .isEmpty()
                                        && world.client
                                                .configMaps()
                                                .inNamespace(namespace)
                                                .list()
                                                .getItems()
                                                .isEmpty());
    }

    @Test
    void aTestCostsTheApiServerAFewWritesAndNoPolls() {
        String namespace = newNamespace();
        world.clearOperatorRequests();
        create(namespace, "counted", spec(2));

        awaitFinished(namespace, "counted");
        // Until the runners are told to finish and their pods end.
        await().atMost(RUN_BOUND)
                .until(
                        () ->
                                world
                                        .client
                                        .pods()
                                        .inNamespace(namespace)
                                        .list()
                                        .getItems()
                                        .stream()
                                        .allMatch(
                                                pod ->
                                                        !"Running"
                                                                .equals(
                                                                        pod.getStatus()
                                                                                .getPhase())));
        List<OperatorHarness.ApiRequest> requests =
                world.operatorRequests().stream()
                        .filter(r -> r.path().contains("/namespaces/" + namespace + "/"))
                        .toList();

        assertThat(requests)
                .as("no reconcile lists or reads its children: the informers have them")
                .noneMatch(
                        r ->
                                r.method().equals("GET")
                                        && List.of("pods", "jobs", "configmaps", "events")
                                                .contains(r.resource()));
        // A ConfigMap and a Job, a status patch per step and per 2 s poll, an event per step.
        assertThat(requests).as("%s", requests).hasSizeLessThanOrEqualTo(40);
    }

    @Test
    void missedThresholdsFailTheTestEachNamed() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setThresholds(List.of("p99 < 1us", "successRatio >= 0.5", "tps < 1"));
        create(namespace, "strict", spec);

        TcpLoadTestStatus status = awaitFinished(namespace, "strict");

        assertThat(status.getPhase()).isEqualTo(Phase.Failed);
        Condition met = condition(status, TcpLoadTestStatus.THRESHOLDS_MET);
        assertThat(met.getStatus()).isEqualTo("False");
        assertThat(met.getMessage())
                .contains("p99 < 1us: measured")
                .contains("tps < 1: measured")
                .doesNotContain("successRatio");
        assertThat(status.getSummary().getRequests()).isPositive();
    }

    @Test
    void anOperatorRestartedMidRunFinishesTheTest() throws Exception {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(2);
        spec.setDuration("4s");
        create(namespace, "resumed", spec);
        awaitPhase(namespace, "resumed", Phase.Running);
        // While it runs, the summary is refreshed from the runners' live figures.
        await().atMost(Duration.ofSeconds(4))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            TcpLoadTestStatus live = get(namespace, "resumed").getStatus();
                            return live.getPhase() == Phase.Running
                                    && live.getSummary() != null
                                    && live.getSummary().getTps() > 0;
                        });

        world.restartOperator();

        TcpLoadTestStatus status = awaitFinished(namespace, "resumed");
        assertThat(status.getPhase()).as(status.getMessage()).isEqualTo(Phase.Succeeded);
        await().atMost(RUN_BOUND).until(() -> resultsOf(namespace, "resumed").size() == 2);
        long requests =
                resultsOf(namespace, "resumed").stream()
                        .mapToLong(r -> r.counts().requests())
                        .sum();
        assertThat(status.getSummary().getRequests()).isEqualTo(requests);
    }

    @Test
    void deletingATestMidRunStopsItsRunnersAtOnce() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(2);
        spec.setDuration("20s");
        create(namespace, "doomed", spec);
        awaitPhase(namespace, "doomed", Phase.Running);

        world.client
                .resources(TcpLoadTest.class)
                .inNamespace(namespace)
                .withName("doomed")
                .delete();

        await().atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                world.client
                                                .batch()
                                                .v1()
                                                .jobs()
                                                .inNamespace(namespace)
                                                .list()
                                                .getItems()
                                                .isEmpty()
                                        && world.client
                                                .pods()
                                                .inNamespace(namespace)
                                                .list()
                                                .getItems()
                                                .isEmpty()
                                        && world.client
                                                        .configMaps()
                                                        .inNamespace(namespace)
                                                        .withName("doomed-profile")
                                                        .get()
                                                == null
                                        && get(namespace, "doomed") == null);
        await().atMost(Duration.ofSeconds(10)).until(() -> world.kubelet.runningRunners() == 0);
    }

    @Test
    void aFinishedTestsRunnersGoAfterItsTtlAndTheTestStays() {
        String namespace = newNamespace();
        TcpLoadTestSpec spec = spec(1);
        spec.setTtlSecondsAfterFinished(1);
        create(namespace, "brief", spec);

        assertThat(awaitFinished(namespace, "brief").getPhase()).isEqualTo(Phase.Succeeded);

        await().atMost(Duration.ofSeconds(15))
                .until(
                        () ->
                                world.client
                                                        .batch()
                                                        .v1()
                                                        .jobs()
                                                        .inNamespace(namespace)
                                                        .withName("brief-runners")
                                                        .get()
                                                == null
                                        && world.client
                                                        .configMaps()
                                                        .inNamespace(namespace)
                                                        .withName(
                                                                DesiredResources.configMapName(
                                                                        get(namespace, "brief")))
                                                        .get()
                                                == null);
        assertThat(get(namespace, "brief").getStatus().getSummary().getRequests()).isPositive();
        await().atMost(RUN_BOUND).until(() -> eventReasons(namespace).contains("CleanedUp"));
    }

    @Test
    void twoTestsInTwoNamespacesRunAtOnce() {
        String first = newNamespace();
        String second = newNamespace();
        create(first, "twin", spec(1));
        create(second, "twin", spec(2));

        TcpLoadTestStatus a = awaitFinished(first, "twin");
        TcpLoadTestStatus b = awaitFinished(second, "twin");

        assertThat(a.getPhase()).as(a.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(b.getPhase()).as(b.getMessage()).isEqualTo(Phase.Succeeded);
        assertThat(a.getRunners()).hasSize(1);
        assertThat(b.getRunners()).hasSize(2);
        assertThat(
                        Duration.between(
                                        java.time.Instant.parse(a.getStartTime()),
                                        java.time.Instant.parse(b.getStartTime()))
                                .abs())
                .as("they overlapped")
                .isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void theOperatorServesHealthReadinessAndMetricsByPhase() throws Exception {
        String namespace = newNamespace();
        create(namespace, "counted", spec(1));
        awaitFinished(namespace, "counted");
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + world.operator().httpPort();

        assertThat(
                        http.send(
                                        java.net.http.HttpRequest.newBuilder(
                                                        java.net.URI.create(base + "/healthz"))
                                                .build(),
                                        java.net.http.HttpResponse.BodyHandlers.ofString())
                                .statusCode())
                .isEqualTo(200);
        assertThat(
                        http.send(
                                        java.net.http.HttpRequest.newBuilder(
                                                        java.net.URI.create(base + "/readyz"))
                                                .build(),
                                        java.net.http.HttpResponse.BodyHandlers.ofString())
                                .statusCode())
                .isEqualTo(200);
        String metrics =
                http.send(
                                java.net.http.HttpRequest.newBuilder(
                                                java.net.URI.create(base + "/metrics"))
                                        .build(),
                                java.net.http.HttpResponse.BodyHandlers.ofString())
                        .body();
        assertThat(metrics)
                .containsPattern("(?m)^tcpload_tests\\{phase=\"Succeeded\"} [1-9]")
                .contains("operator_sdk_");
    }

    /**
     * A runner pod dies as pods die in a cluster: killed for memory, evicted, lost with its node,
     * its Job deleted. No runner's end ends another, each test ends in a stated phase, and every
     * surviving figure is merged. Runners that must get real signals run as processes of their own.
     */
    @Nested
    class WhenARunnerPodDies {
        private final String namespace = newNamespace();

        private void behave(int index, PodBehaviour chosen, PodBehaviour others) {
            world.kubelet.behaving(
                    (job, i) ->
                            job.getMetadata().getNamespace().equals(namespace)
                                    ? (i == index ? chosen : others)
                                    : PodBehaviour.NORMAL);
        }

        /** Waits until the test's runners have been sending for a moment. */
        private List<String> awaitLoad(String name) {
            await().atMost(RUN_BOUND)
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> {
                                TcpLoadTestStatus status = get(namespace, name).getStatus();
                                return status != null
                                        && status.getRunners() != null
                                        && !status.getRunners().isEmpty()
                                        && status.getRunners().stream()
                                                .allMatch(
                                                        row ->
                                                                row.getRequests() != null
                                                                        && row.getRequests() > 0);
                            });
            return world.kubelet.podNames(name + "-runners");
        }

        private String podPhase(String pod) {
            var found = world.client.pods().inNamespace(namespace).withName(pod).get();
            return found == null ? "(gone)" : found.getStatus().getPhase();
        }

        private Job job(String name) {
            return world.client
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withName(name + "-runners")
                    .get();
        }

        @Test
        void oneOfThreeRunnersKilledForMemoryLosesOnlyItsShare() {
            behave(
                    1,
                    PodBehaviour.killedAfter(Duration.ofMillis(2500), "OOMKilled"),
                    PodBehaviour.NORMAL);
            TcpLoadTestSpec spec = spec(3);
            spec.setDuration("4s");
            create(namespace, "oom", spec);

            TcpLoadTestStatus status = awaitFinished(namespace, "oom");

            assertThat(status.getPhase()).isEqualTo(Phase.Failed);
            assertThat(status.getSummary()).as(status.getMessage()).isNotNull();
            assertThat(status.getSummary().getCoverage())
                    .matches(
                            "2 of 3 runners whole; runner 1 \\(pod oom-runners-1-\\w+\\) lost at"
                                    + " [0-4] s: OOMKilled: exit code 137");
            assertThat(status.getMessage())
                    .isEqualTo("Incomplete result: " + status.getSummary().getCoverage() + ".");
            assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getReason())
                    .isEqualTo("RunnerFailed");
            List<String> pods = world.kubelet.podNames("oom-runners");
            assertThat(pods).as("nothing replaced").hasSize(3);
            await().atMost(RUN_BOUND)
                    .untilAsserted(
                            () ->
                                    assertThat(pods)
                                            .extracting(this::podPhase)
                                            .as("the others ran to their end")
                                            .containsExactly("Succeeded", "Failed", "Succeeded"));
            assertThat(status.getSummary().getRequests())
                    .isEqualTo(
                            status.getRunners().get(0).getRequests()
                                    + status.getRunners().get(2).getRequests());
            await().atMost(RUN_BOUND)
                    .untilAsserted(
                            () ->
                                    assertThat(job("oom").getStatus().getFailedIndexes())
                                            .isEqualTo("1"));
        }

        @Test
        void aRunnerEvictedWithGraceServesItsPartialResult() {
            behave(1, PodBehaviour.PROCESS, PodBehaviour.PROCESS);
            TcpLoadTestSpec spec = spec(2);
            spec.setDuration("6s");
            spec.setStartTimeoutSeconds(60);
            create(namespace, "evicted", spec);
            List<String> pods = awaitLoad("evicted");

            world.kubelet.evict(pods.get(1));
            TcpLoadTestStatus status = awaitFinished(namespace, "evicted");

            assertThat(status.getPhase()).isEqualTo(Phase.Failed);
            assertThat(condition(status, TcpLoadTestStatus.COMPLETED).getReason())
                    .isEqualTo("PartialResult");
            assertThat(status.getSummary().getCoverage())
                    .matches(
                            "1 of 2 runners whole, 1 partial; runner 1 \\(pod evicted-runners-1-\\w+\\)"
                                    + " stopped by SIGTERM after [0-9.]+ s \\(EvictionByEvictionAPI\\):"
                                    + " partial");
            assertThat(status.getRunners().get(1).getPartial()).isTrue();
            assertThat(status.getRunners().get(1).getRequests()).isPositive();
            assertThat(status.getSummary().getRequests())
                    .as("the partial figures are merged with the whole ones")
                    .isEqualTo(
                            status.getRunners().get(0).getRequests()
                                    + status.getRunners().get(1).getRequests());
            await().atMost(RUN_BOUND)
                    .untilAsserted(() -> assertThat(podPhase(pods.get(0))).isEqualTo("Succeeded"));
        }

        @Test
        void aRunnerLostWithItsNodeIsDeclaredLostAndTheOthersFiguresStand() {
            behave(1, PodBehaviour.PROCESS, PodBehaviour.PROCESS);
            TcpLoadTestSpec spec = spec(2);
            spec.setDuration("3s");
            spec.setStartTimeoutSeconds(60);
            create(namespace, "nodeless", spec);
            List<String> pods = awaitLoad("nodeless");

            world.kubelet.loseNode(pods.get(1), Duration.ofSeconds(3));
            // Every fetch from the lost runner waits out its timeout; no other test waits for it.
            String beside = newNamespace();
            create(beside, "beside", spec(1));
            TcpLoadTestStatus besideStatus = awaitFinished(beside, "beside");
            assertThat(besideStatus.getPhase())
                    .as(besideStatus.getMessage())
                    .isEqualTo(Phase.Succeeded);
            assertThat(get(namespace, "nodeless").getStatus().getPhase())
                    .as("the test beside it finished while this one still waited for its runner")
                    .isEqualTo(Phase.Running);
            await().atMost(RUN_BOUND.plus(StatusComputer.LOST_AFTER))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> get(namespace, "nodeless").getStatus().getPhase().finished());
            TcpLoadTestStatus status = get(namespace, "nodeless").getStatus();

            assertThat(status.getPhase()).isEqualTo(Phase.Failed);
            assertThat(status.getSummary().getCoverage())
                    .matches(
                            "1 of 2 runners whole; runner 1 \\(pod nodeless-runners-1-\\w+\\) lost at"
                                    + " [0-9]+ s: unreachable for 20 s \\(its node may be lost\\)");
            assertThat(status.getSummary().getRequests())
                    .isEqualTo(status.getRunners().get(0).getRequests());
            assertThat(
                            world.client
                                    .pods()
                                    .inNamespace(namespace)
                                    .withName(pods.get(1))
                                    .get()
                                    .getMetadata()
                                    .getDeletionTimestamp())
                    .as("its pod stays Terminating while its node is away")
                    .isNotNull();
        }

        @Test
        void theWholeJobDeletedMidRunKeepsEveryRunnersPartialResult() {
            behave(0, PodBehaviour.PROCESS, PodBehaviour.PROCESS);
            TcpLoadTestSpec spec = spec(2);
            spec.setDuration("20s");
            spec.setStartTimeoutSeconds(60);
            create(namespace, "jobless", spec);
            awaitLoad("jobless");

            world.client.resource(job("jobless")).delete();
            TcpLoadTestStatus status = awaitFinished(namespace, "jobless");

            assertThat(status.getPhase()).isEqualTo(Phase.Failed);
            assertThat(status.getSummary().getCoverage())
                    .startsWith("0 of 2 runners whole, 2 partial; ")
                    .contains("(pod deleted): partial");
            assertThat(status.getSummary().getRuntimeMs()).isLessThan(20_000);
            assertThat(status.getSummary().getRequests())
                    .isEqualTo(
                            status.getRunners().get(0).getRequests()
                                    + status.getRunners().get(1).getRequests());
        }
    }
}
