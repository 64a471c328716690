package io.tcpload.operator.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.tcpload.operator.children.DesiredResources;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.CommittedCrd.Violation;
import io.tcpload.operator.validation.Failure;
import io.tcpload.operator.validation.Sources;
import io.tcpload.operator.validation.TcpLoadTestValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad specs are refused at {@code kubectl apply}: the committed CRD, applied as an API server
 * applies it ({@link CommittedCrd}: defaults, the OpenAPI schema by a JSON-schema validator, the
 * CEL rules by CEL), accepts every example and refuses every bad spec below with its message; and
 * the operator's validator, all that stands between a bad spec and the runner pods where the API
 * server checks nothing (as the mock API server of the operator's tests), agrees on every one.
 */
class CrdValidationTest {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final Path EXAMPLES = Path.of("..", "examples");

    private static CommittedCrd crd;

    @BeforeAll
    static void load() {
        crd = CommittedCrd.load();
    }

    @Test
    void everyExampleIsAcceptedByTheCrdAndTheValidator() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(EXAMPLES)) {
            files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        int tests = 0;
        for (Path file : files) {
            for (JsonNode document :
                    YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll()) {
                if (!"TcpLoadTest".equals(document.path("kind").asText())) {
                    continue;
                }
                tests++;
                assertThat(crd.create(document)).as("the CRD on %s", file).isEmpty();
                assertThat(validator(document)).as("the validator on %s", file).isEmpty();
            }
        }
        assertThat(tests).as("TcpLoadTests in examples/").isGreaterThanOrEqualTo(6);
    }

    /**
     * A bad spec.
     *
     * @param testName the test's name, or null for the valid test's
     * @param change what makes the valid test's spec bad
     * @param crdField the field the API server names
     * @param crdMessage part of its message: the JSON-schema keyword, or the CEL rule's message
     */
    record Bad(
            String name,
            String testName,
            Consumer<ObjectNode> change,
            String crdField,
            String crdMessage,
            String validatorField,
            String validatorMessage) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Bad> badSpecs() {
        String longName = "a".repeat(SpecLimits.TEST_NAME_MAX + 1);
        return List.of(
                bad(
                        "more than 1,000 runners",
                        spec -> spec.put("runners", 1001).put("connections", 2002),
                        "spec.runners",
                        "maximum",
                        "spec.runners",
                        "at most 1000"),
                bad(
                        "no runner",
                        spec -> spec.put("runners", 0),
                        "spec.runners",
                        "minimum",
                        "spec.runners",
                        "at least 1"),
                bad(
                        "more than 256 threads",
                        spec -> spec.put("threads", 257).put("connections", 257),
                        "spec.threads",
                        "maximum",
                        "spec.threads",
                        "at most 256"),
                bad(
                        "fewer connections than runners x threads",
                        spec -> spec.put("runners", 3).put("threads", 4).put("connections", 11),
                        "spec.connections",
                        SpecRules.CONNECTIONS_COVER_LOOPS_MESSAGE,
                        "spec.connections",
                        "at least runners x threads (3 x 4 = 12)"),
                bad(
                        "more connections than one runner opens",
                        spec -> spec.put("threads", 1).put("connections", 1_000_001),
                        "spec.connections",
                        SpecRules.CONNECTIONS_PER_RUNNER_MESSAGE,
                        "spec.connections",
                        "add runners"),
                bad(
                        "a rate of 0",
                        spec -> spec.put("rate", 0),
                        "spec.rate",
                        "minimum",
                        "spec.rate",
                        "above 0"),
                bad(
                        "a rate below the runners",
                        spec -> spec.put("runners", 4).put("connections", 8).put("rate", 3),
                        "spec.rate",
                        SpecRules.RATE_SHARED_MESSAGE,
                        "spec.rate",
                        "at least the number of runners (4)"),
                bad(
                        "profile and profileFrom",
                        spec -> spec.putObject("profileFrom").put("name", "p").put("key", "k"),
                        "spec.profile",
                        SpecRules.ONE_PROFILE_MESSAGE,
                        "spec.profile",
                        "either profile"),
                bad(
                        "values shown without a dry run",
                        spec -> spec.put("dryRunShowValues", true),
                        "spec.dryRunShowValues",
                        SpecRules.SHOW_VALUES_IN_DRY_RUN_MESSAGE,
                        "spec.dryRunShowValues",
                        "is for a dry run"),
                bad(
                        "values shown with dryRun false",
                        spec -> spec.put("dryRun", false).put("dryRunShowValues", true),
                        "spec.dryRunShowValues",
                        SpecRules.SHOW_VALUES_IN_DRY_RUN_MESSAGE,
                        "spec.dryRunShowValues",
                        "is for a dry run"),
                bad(
                        "no profile",
                        spec -> spec.remove("profile"),
                        "spec.profile",
                        SpecRules.ONE_PROFILE_MESSAGE,
                        "spec.profile",
                        "either profile"),
                bad(
                        "duration and stages",
                        spec -> stages(spec, "10s", 100),
                        "spec.duration",
                        SpecRules.DURATION_OR_STAGES_MESSAGE,
                        "spec.duration",
                        "either duration or stages"),
                bad(
                        "a dry run with duration and stages",
                        spec -> stages(spec.put("dryRun", true), "10s", 100),
                        "spec.duration",
                        SpecRules.DURATION_OR_STAGES_MESSAGE,
                        "spec.duration",
                        "either duration or stages"),
                bad(
                        "no duration and no stages",
                        spec -> spec.remove("duration"),
                        "spec.duration",
                        SpecRules.DURATION_OR_STAGES_MESSAGE,
                        "spec.duration",
                        "either duration or stages"),
                bad(
                        "a duration in words",
                        spec -> spec.put("duration", "10 minutes"),
                        "spec.duration",
                        "pattern",
                        "spec.duration",
                        "not a duration"),
                bad(
                        "a zero duration",
                        spec -> spec.put("duration", "0s"),
                        "spec.duration",
                        "pattern",
                        "spec.duration",
                        "not a duration"),
                bad(
                        "a duration in upper case",
                        spec -> spec.put("duration", "10S"),
                        "spec.duration",
                        "pattern",
                        "spec.duration",
                        "not a duration"),
                bad(
                        "a timeout with an unknown unit",
                        spec -> spec.put("timeout", "5x"),
                        "spec.timeout",
                        "pattern",
                        "spec.timeout",
                        "not a duration"),
                bad(
                        "a stage of a day",
                        spec -> {
                            spec.remove("duration");
                            stages(spec, "10s", 1);
                            stages(spec, "1d", 1);
                        },
                        "spec.stages[1].duration",
                        "pattern",
                        "spec.stages[1].duration",
                        "'1d'"),
                bad(
                        "a negative stage rate",
                        spec -> {
                            spec.remove("duration");
                            stages(spec, "10s", -1);
                        },
                        "spec.stages[0].rate",
                        "minimum",
                        "spec.stages[0].rate",
                        "from 0"),
                bad(
                        "an unknown threshold metric",
                        spec -> spec.putArray("thresholds").add("p99 < 250ms").add("p95 < 1s"),
                        "spec.thresholds[1]",
                        "pattern",
                        "spec.thresholds[1]",
                        "unknown metric 'p95'"),
                bad(
                        "a ratio above 1",
                        spec -> spec.putArray("thresholds").add("successRatio >= 99"),
                        "spec.thresholds[0]",
                        "pattern",
                        "spec.thresholds[0]",
                        "a ratio is from 0 to 1"),
                bad(
                        "a unit on tps",
                        spec -> spec.putArray("thresholds").add("tps > 10ms"),
                        "spec.thresholds[0]",
                        "pattern",
                        "spec.thresholds[0]",
                        "plain number"),
                bad(
                        "more than 100 thresholds",
                        spec -> {
                            ArrayNode thresholds = spec.putArray("thresholds");
                            for (int i = 0; i <= SpecLimits.THRESHOLDS_MAX; i++) {
                                thresholds.add("p99 < " + (i + 1) + "ms");
                            }
                        },
                        "spec.thresholds",
                        "maxItems",
                        "spec.thresholds",
                        "at most 100"),
                bad(
                        "a file name with folders",
                        spec -> file(spec, "../etc/passwd").put("content", "x"),
                        "spec.files[0].name",
                        "pattern",
                        "spec.files[0].name",
                        "plain file name"),
                bad(
                        "a file named ..",
                        spec -> file(spec, "..").put("content", "x"),
                        "spec.files[0].name",
                        "pattern",
                        "spec.files[0].name",
                        "plain file name"),
                bad(
                        "a file named as the profile",
                        spec -> file(spec, "profile.ini").put("content", "x"),
                        "spec.files[0].name",
                        SpecRules.NOT_THE_PROFILE_MESSAGE,
                        "spec.files[0].name",
                        "the profile's own name"),
                bad(
                        "a file name given twice",
                        spec -> {
                            file(spec, "a").put("content", "1");
                            file(spec, "a").put("content", "2");
                        },
                        "spec.files",
                        SpecRules.FILE_NAMES_UNIQUE_MESSAGE,
                        "spec.files[1].name",
                        "given twice"),
                bad(
                        "a file with content and a ConfigMap key",
                        spec -> {
                            ObjectNode file = file(spec, "a").put("content", "1");
                            file.putObject("configMapKeyRef").put("name", "m").put("key", "k");
                        },
                        "spec.files[0]",
                        SpecRules.ONE_FILE_SOURCE_MESSAGE,
                        "spec.files[0]",
                        "one of content, configMapKeyRef and secretKeyRef"),
                bad(
                        "a file without text",
                        spec -> file(spec, "a"),
                        "spec.files[0]",
                        SpecRules.ONE_FILE_SOURCE_MESSAGE,
                        "spec.files[0]",
                        "one of content, configMapKeyRef and secretKeyRef"),
                bad(
                        "more than 64 files",
                        spec -> {
                            for (int i = 0; i <= SpecLimits.FILES_MAX; i++) {
                                file(spec, "f" + i).put("content", "1");
                            }
                        },
                        "spec.files",
                        "maxItems",
                        "spec.files",
                        "at most 64 files"),
                bad(
                        "spec.tls naming nothing",
                        spec -> spec.putObject("tls"),
                        "spec.tls",
                        SpecRules.TLS_SOMETHING_MESSAGE,
                        "spec.tls",
                        "give clientCertificate, ca or both"),
                bad(
                        "a CA bundle from a ConfigMap and a Secret",
                        spec -> {
                            ObjectNode ca = spec.putObject("tls").putObject("ca");
                            ca.putObject("configMapKeyRef").put("name", "m").put("key", "k");
                            ca.putObject("secretKeyRef").put("name", "s").put("key", "k");
                        },
                        "spec.tls.ca",
                        SpecRules.ONE_KEY_SOURCE_MESSAGE,
                        "spec.tls.ca",
                        "one of configMapKeyRef and secretKeyRef"),
                bad(
                        "a client certificate Secret name in capitals",
                        spec ->
                                spec.putObject("tls")
                                        .putObject("clientCertificate")
                                        .put("secretName", "Bad_Name"),
                        "spec.tls.clientCertificate.secretName",
                        "pattern",
                        "spec.tls.clientCertificate.secretName",
                        "not a Secret name"),
                bad(
                        "a ConfigMap name in capitals",
                        spec ->
                                file(spec, "a")
                                        .putObject("configMapKeyRef")
                                        .put("name", "Bad_Name")
                                        .put("key", "k"),
                        "spec.files[0].configMapKeyRef.name",
                        "pattern",
                        "spec.files[0].configMapKeyRef.name",
                        "not a ConfigMap name"),
                bad(
                        "a ConfigMap key with a slash",
                        spec -> {
                            spec.remove("profile");
                            spec.putObject("profileFrom").put("name", "p").put("key", "a/b");
                        },
                        "spec.profileFrom.key",
                        "pattern",
                        "spec.profileFrom.key",
                        "not a ConfigMap key"),
                bad(
                        "an inline profile over 200 KiB",
                        spec ->
                                spec.put(
                                        "profile",
                                        Specs.PROFILE
                                                + "#"
                                                + "x".repeat(SpecLimits.INLINE_TEXT_MAX)
                                                + "\n"),
                        "spec.profile",
                        "maxLength",
                        "spec.profile",
                        "at most 204800 characters"),
                bad(
                        "port 0",
                        spec -> spec.putObject("target").put("host", "svc").put("port", 0),
                        "spec.target.port",
                        "minimum",
                        "spec.target.port",
                        "from 1 to 65535"),
                bad(
                        "an empty host",
                        spec -> spec.putObject("target").put("host", "").put("port", 80),
                        "spec.target.host",
                        "minLength",
                        "spec.target.host",
                        "is missing"),
                bad(
                        "a host with a blank",
                        spec -> spec.putObject("target").put("host", "my host").put("port", 80),
                        "spec.target.host",
                        "pattern",
                        "spec.target.host",
                        "without blanks"),
                bad(
                        "an unknown pull policy",
                        spec -> spec.putObject("runner").put("imagePullPolicy", "Sometimes"),
                        "spec.runner.imagePullPolicy",
                        "pattern",
                        "spec.runner.imagePullPolicy",
                        "Always, IfNotPresent or Never"),
                bad(
                        "a label value over 63 characters",
                        spec ->
                                spec.putObject("runner")
                                        .putObject("labels")
                                        .put("team", "x".repeat(64)),
                        "spec.runner.labels.team",
                        "maxLength",
                        "spec.runner.labels[team]",
                        "at most 63"),
                bad(
                        "more than 64 extra volumes",
                        spec -> {
                            ArrayNode volumes = spec.putObject("runner").putArray("volumes");
                            for (int i = 0; i <= SpecLimits.POD_LIST_ITEMS_MAX; i++) {
                                volumes.addObject().put("name", "v" + i).putObject("emptyDir");
                            }
                        },
                        "spec.runner.volumes",
                        "maxItems",
                        "spec.runner.volumes",
                        "at most 64 items"),
                bad(
                        "more than 16 init containers",
                        spec -> {
                            ArrayNode init = spec.putObject("runner").putArray("initContainers");
                            for (int i = 0; i <= SpecLimits.INIT_CONTAINERS_MAX; i++) {
                                init.addObject().put("name", "c" + i).put("image", "busybox");
                            }
                        },
                        "spec.runner.initContainers",
                        "maxItems",
                        "spec.runner.initContainers",
                        "at most 16 items"),
                bad(
                        "a grace period over an hour",
                        spec -> spec.putObject("runner").put("terminationGracePeriodSeconds", 3601),
                        "spec.runner.terminationGracePeriodSeconds",
                        "maximum",
                        "spec.runner.terminationGracePeriodSeconds",
                        "from 0 to 3600 seconds"),
                bad(
                        "a negative grace period",
                        spec -> spec.putObject("runner").put("terminationGracePeriodSeconds", -1),
                        "spec.runner.terminationGracePeriodSeconds",
                        "minimum",
                        "spec.runner.terminationGracePeriodSeconds",
                        "from 0 to 3600 seconds"),
                bad(
                        "no start time",
                        spec -> spec.put("startTimeoutSeconds", 0),
                        "spec.startTimeoutSeconds",
                        "minimum",
                        "spec.startTimeoutSeconds",
                        "at least 1"),
                bad(
                        "a negative time to live",
                        spec -> spec.put("ttlSecondsAfterFinished", -1),
                        "spec.ttlSecondsAfterFinished",
                        "minimum",
                        "spec.ttlSecondsAfterFinished",
                        "must not be negative"),
                named(
                        "a name with a dot",
                        "load.test",
                        spec -> {},
                        "",
                        SpecRules.NAME_HAS_NO_DOT_MESSAGE,
                        "metadata.name",
                        "must not contain '.'"),
                named(
                        "a name too long for one runner's host name",
                        longName,
                        spec -> {},
                        "",
                        SpecRules.NAME_LENGTH_MESSAGE,
                        "metadata.name",
                        "is 54 characters, more than 53 for 1 runner"),
                named(
                        "a name too long for 101 runners' host names",
                        "a".repeat(SpecLimits.TEST_NAME_MAX - 1),
                        spec -> spec.put("runners", 101).put("threads", 1).put("connections", 101),
                        "",
                        SpecRules.NAME_LENGTH_MESSAGE,
                        "metadata.name",
                        "is 52 characters, more than 51 for 101 runners"),
                bad(
                        "no spec",
                        spec -> spec.removeAll(),
                        "",
                        SpecRules.HAS_SPEC_MESSAGE,
                        "spec",
                        "is missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSpecs")
    void aBadSpecIsRefusedByTheCrdAndByTheValidator(Bad bad) {
        ObjectNode test = valid();
        if (bad.testName() != null) {
            ((ObjectNode) test.get("metadata")).put("name", bad.testName());
        }
        bad.change().accept((ObjectNode) test.get("spec"));
        if (test.get("spec").isEmpty()) {
            test.remove("spec");
        }

        List<Violation> violations = crd.create(test);
        assertThat(violations)
                .as("the API server's answer")
                .anySatisfy(
                        v -> {
                            assertThat(v.field()).isEqualTo(bad.crdField());
                            assertThat(v.message()).contains(bad.crdMessage());
                        })
                .noneSatisfy(v -> assertThat(v.message()).startsWith("rule error"));

        Optional<Failure> failure = validator(test);
        assertThat(failure).as("the validator's answer").isPresent();
        assertThat(failure.get().field()).isEqualTo(bad.validatorField());
        assertThat(failure.get().message()).contains(bad.validatorMessage());
    }

    @Test
    void thereAreAtLeastTwentyBadSpecs() {
        assertThat(badSpecs()).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void theValidSpecAndTheLimitsThemselvesAreAccepted() {
        assertAccepted(valid());
        ObjectNode longest = valid();
        ((ObjectNode) longest.get("metadata")).put("name", "a".repeat(SpecLimits.TEST_NAME_MAX));
        assertAccepted(longest);
        ObjectNode most = valid();
        ((ObjectNode) most.get("metadata")).put("name", "a".repeat(SpecLimits.TEST_NAME_MAX - 2));
        ObjectNode spec = (ObjectNode) most.get("spec");
        spec.put("runners", 1000).put("threads", 1).put("connections", 1000).put("rate", 1000);
        assertAccepted(most);
        ObjectNode shown = valid();
        ((ObjectNode) shown.get("spec")).put("dryRun", true).put("dryRunShowValues", true);
        assertAccepted(shown);
        ObjectNode dryRunOnly = valid();
        ((ObjectNode) dryRunOnly.get("spec")).put("dryRun", true).remove("duration");
        assertAccepted(dryRunOnly);
        ObjectNode hidden = valid();
        ((ObjectNode) hidden.get("spec")).put("dryRunShowValues", false);
        assertAccepted(hidden);
        // The name's limit is the pods' host names, as the Job controller makes them.
        TcpLoadTest test = Serialization.unmarshal(most.toString(), TcpLoadTest.class);
        String hostName = DesiredResources.jobName(test) + "-" + (test.getSpec().getRunners() - 1);
        assertThat(hostName).hasSize(SpecLimits.HOST_NAME_MAX);
    }

    /**
     * What only the operator can judge is accepted by the CRD and refused by the validator: the
     * inline texts' size in bytes (CEL counts characters and has no sum over a list), and
     * per-request thresholds, which the CRD's pattern already takes for a later feature.
     */
    @Test
    void whatOnlyTheOperatorJudgesIsRefusedByTheValidator() {
        ObjectNode large = valid();
        ObjectNode spec = (ObjectNode) large.get("spec");
        spec.put("profile", Specs.PROFILE + "#" + "x".repeat(150 * 1024) + "\n");
        file(spec, "accounts.txt").put("content", "1\n".repeat(50 * 1024));
        assertThat(crd.create(large)).isEmpty();
        assertRefusedByTheValidator(large, "spec.profile", "kubectl apply --server-side");

        ObjectNode wide = valid();
        // 100,000 characters of three bytes each: within maxLength, over the bytes.
        ((ObjectNode) wide.get("spec"))
                .put("profile", Specs.PROFILE + "#" + "\u20ac".repeat(100_000) + "\n");
        assertThat(crd.create(wide)).isEmpty();
        assertRefusedByTheValidator(wide, "spec.profile", "more than 204800 (200 KiB)");

        ObjectNode perRequest = valid();
        ((ObjectNode) perRequest.get("spec"))
                .putArray("thresholds")
                .add("p99{request=transfer} < 200ms");
        assertThat(crd.create(perRequest)).isEmpty();
        assertRefusedByTheValidator(
                perRequest,
                "spec.thresholds[0]",
                "names the request 'transfer', which the profile does not have");

        // Volumes and mounts of Kubernetes' own types: the CRD cannot bound their names, so no
        // CEL rule can compare them with the operator's own.
        ObjectNode results = valid();
        ObjectNode runner = ((ObjectNode) results.get("spec")).putObject("runner");
        runner.putArray("volumes").addObject().put("name", "data").putObject("emptyDir");
        runner.putArray("volumeMounts")
                .addObject()
                .put("name", "data")
                .put("mountPath", "/results");
        assertThat(crd.create(results)).isEmpty();
        assertRefusedByTheValidator(
                results,
                "spec.runner.volumeMounts[0].mountPath",
                "clashes with the operator's own");
    }

    /** kubectl's strict field validation refuses a misspelt field; the validator never sees one. */
    @Test
    void anUnknownFieldIsRefused() {
        ObjectNode test = valid();
        ((ObjectNode) test.get("spec")).put("connection", 10);
        assertThat(crd.create(test))
                .anySatisfy(
                        v -> {
                            assertThat(v.field()).isEqualTo("spec.connection");
                            assertThat(v.message()).startsWith("additionalProperties");
                        });
    }

    @Test
    void aWrongTypeStopsTheRulesAsInAnApiServer() {
        ObjectNode test = valid();
        ((ObjectNode) test.get("spec")).put("runners", "four");
        assertThat(crd.create(test))
                .anySatisfy(v -> assertThat(v.message()).startsWith("type"))
                .anySatisfy(v -> assertThat(v.message()).contains("rules were not checked"));
    }

    @Test
    void defaultsAreAppliedBeforeTheRules() {
        ObjectNode test = valid();
        ObjectNode spec = (ObjectNode) test.get("spec");
        spec.remove("threads");
        // With the default of one thread, 1 connection covers every loop.
        spec.put("connections", 1);
        assertThat(crd.create(test)).isEmpty();
        spec.put("threads", 2);
        assertThat(crd.create(test))
                .extracting(Violation::message)
                .containsExactly(SpecRules.CONNECTIONS_COVER_LOOPS_MESSAGE);
    }

    @Test
    void theSpecIsImmutableOnceCreated() {
        ObjectNode stored = valid();
        assertThat(crd.create(stored)).isEmpty();
        assertThat(crd.update(stored, stored)).as("applied again, unchanged").isEmpty();

        List<Consumer<ObjectNode>> changes =
                List.of(
                        spec -> spec.put("connections", 20),
                        spec -> spec.put("rate", 100),
                        spec -> spec.put("timeout", "6s"),
                        spec -> spec.put("duration", "31s"),
                        spec -> spec.putArray("thresholds").add("p99 < 1s"),
                        spec -> file(spec, "a").put("content", "1"),
                        spec -> spec.putObject("runner").put("image", "runner:2"),
                        spec -> spec.putObject("runner").put("terminationGracePeriodSeconds", 60),
                        spec ->
                                spec.putObject("runner")
                                        .putObject("nodeSelector")
                                        .put("pool", "load"));
        for (Consumer<ObjectNode> change : changes) {
            ObjectNode updated = stored.deepCopy();
            change.accept((ObjectNode) updated.get("spec"));
            assertThat(crd.update(stored, updated))
                    .as("updated to %s", updated.get("spec"))
                    .containsExactly(new Violation("spec", SpecRules.IMMUTABLE_MESSAGE));
        }
    }

    /**
     * Kubernetes' own types in the spec are left out of the immutability rule (see {@link
     * SpecRules#IMMUTABLE}): the API server takes a change to them, and the operator refuses it
     * once the test started.
     */
    @Test
    void kubernetesOwnTypesAreLeftToTheOperator() {
        ObjectNode stored = valid();
        ObjectNode updated = stored.deepCopy();
        ((ObjectNode) updated.get("spec"))
                .putObject("runner")
                .putArray("tolerations")
                .addObject()
                .put("key", "load")
                .put("operator", "Exists");
        assertThat(crd.update(stored, updated)).isEmpty();
        ObjectNode mounted = stored.deepCopy();
        ObjectNode runner = ((ObjectNode) mounted.get("spec")).putObject("runner");
        runner.putArray("volumes").addObject().put("name", "data").putObject("emptyDir");
        runner.putObject("securityContext").put("runAsUser", 1000);
        assertThat(crd.update(stored, mounted)).isEmpty();
    }

    @Test
    void statusWritesAndMetadataChangesAreNotSpecChanges() {
        ObjectNode stored = valid();
        ObjectNode status = YAML.createObjectNode().put("phase", "Running").put("message", "Load.");
        assertThat(crd.updateStatus(stored, status)).isEmpty();

        ObjectNode relabelled = stored.deepCopy();
        ((ObjectNode) relabelled.get("metadata"))
                .putArray("finalizers")
                .add("tcploadtests.tcpload.io/finalizer");
        assertThat(crd.update(stored, relabelled)).isEmpty();

        // A main-resource write carrying a status: the API server keeps the stored status.
        ObjectNode withStatus = stored.deepCopy();
        withStatus.putObject("status").put("phase", "Succeeded");
        assertThat(crd.update(stored, withStatus)).isEmpty();
    }

    private static void assertAccepted(ObjectNode test) {
        assertThat(crd.create(test)).as("the API server's answer to %s", test).isEmpty();
        assertThat(validator(test)).as("the validator's answer").isEmpty();
    }

    private static void assertRefusedByTheValidator(ObjectNode test, String field, String message) {
        Optional<Failure> failure = validator(test);
        assertThat(failure).isPresent();
        assertThat(failure.get().field()).isEqualTo(field);
        assertThat(failure.get().message()).contains(message);
    }

    /** The operator's answer, on the test as a client reads it back (no defaults applied). */
    private static Optional<Failure> validator(JsonNode object) {
        TcpLoadTest test = Serialization.unmarshal(object.toString(), TcpLoadTest.class);
        Sources sources =
                test.getSpec() == null
                        ? new Sources(Optional.empty(), Map.of())
                        : Sources.inline(test.getSpec());
        return TcpLoadTestValidator.validate(test, sources);
    }

    private static ObjectNode valid() {
        ObjectNode test = YAML.createObjectNode();
        test.put("apiVersion", "tcpload.io/v1alpha1").put("kind", "TcpLoadTest");
        test.putObject("metadata").put("name", "checkout").put("namespace", "load");
        test.putObject("spec")
                .put("profile", Specs.PROFILE)
                .put("threads", 2)
                .put("connections", 10)
                .put("duration", "30s");
        return test;
    }

    private static Bad bad(
            String name,
            Consumer<ObjectNode> change,
            String crdField,
            String crdMessage,
            String validatorField,
            String validatorMessage) {
        return new Bad(name, null, change, crdField, crdMessage, validatorField, validatorMessage);
    }

    private static Bad named(
            String name,
            String testName,
            Consumer<ObjectNode> change,
            String crdField,
            String crdMessage,
            String validatorField,
            String validatorMessage) {
        return new Bad(
                name, testName, change, crdField, crdMessage, validatorField, validatorMessage);
    }

    private static void stages(ObjectNode spec, String duration, long rate) {
        ArrayNode stages =
                spec.has("stages") ? (ArrayNode) spec.get("stages") : spec.putArray("stages");
        stages.addObject().put("duration", duration).put("rate", rate);
    }

    private static ObjectNode file(ObjectNode spec, String name) {
        ArrayNode files =
                spec.has("files") ? (ArrayNode) spec.get("files") : spec.putArray("files");
        return files.addObject().put("name", name);
    }
}
