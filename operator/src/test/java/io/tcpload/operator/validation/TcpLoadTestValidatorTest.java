package io.tcpload.operator.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.ClientCertificate;
import io.tcpload.operator.crd.ConfigMapKey;
import io.tcpload.operator.crd.DataFile;
import io.tcpload.operator.crd.KeySource;
import io.tcpload.operator.crd.ProfileSource;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.SearchSettings;
import io.tcpload.operator.crd.SpecLimits;
import io.tcpload.operator.crd.Stage;
import io.tcpload.operator.crd.TargetOverride;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import io.tcpload.operator.crd.TlsSettings;
import io.tcpload.runner.contract.RunnerLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TcpLoadTestValidatorTest {
    private static final String WITH_FILE =
            Specs.PROFILE.replace(
                            "<term>$(TERM)</term>", "<term>$(TERM)</term><acct>$(ACCT)</acct>")
                    + "ACCT = FILE, accounts.txt\n";

    @Test
    void aValidSpecPasses() {
        assertThat(TcpLoadTestValidator.validate(Specs.valid())).isEmpty();
    }

    @Test
    void theRunnersLimitsAreTheSpecsLimits() {
        assertRefused(
                spec -> spec.setRunners(RunnerLimits.RUNNERS_MAX + 1), "spec.runners", "at most");
        assertRefused(
                spec -> spec.setThreads(RunnerLimits.THREADS_MAX + 1), "spec.threads", "at most");
        assertRefused(
                spec -> {
                    spec.setThreads(1);
                    spec.setConnections(RunnerLimits.CONNECTIONS_MAX + 1);
                },
                "spec.connections",
                "add runners");
        assertRefused(spec -> spec.setDuration("999999h"), "spec.duration", "at most 720h");
        assertRefused(spec -> spec.setTimeout("2h"), "spec.timeout", "at most 1h");
        assertRefused(spec -> spec.setRate(2_000_000_000L), "spec.rate", "at most");
        TcpLoadTestSpec big = Specs.valid();
        big.setRunners(2);
        big.setThreads(1);
        big.setConnections(2 * RunnerLimits.CONNECTIONS_MAX);
        assertThat(TcpLoadTestValidator.validate(big)).isEmpty();
    }

    private static TlsSettings caAndClient() {
        TlsSettings tls = new TlsSettings();
        tls.setCa(KeySource.configMap("bank-ca", "ca.crt"));
        tls.setClientCertificate(new ClientCertificate("bank-client"));
        return tls;
    }

    @Test
    void specTlsNeedsAProfileThatSaysTls() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setTls(caAndClient());

        assertThat(TcpLoadTestValidator.validate(spec))
                .hasValueSatisfying(
                        failure -> {
                            assertThat(failure.field()).isEqualTo("spec.tls");
                            assertThat(failure.message()).contains("tls = true");
                        });
    }

    @Test
    void specTlsStandsForTheProfilesOwnTlsFiles() {
        TcpLoadTestSpec spec = Specs.valid();
        // Paths of the machine the profile was written on: not in the pod, and not looked up.
        spec.setProfile(
                Specs.PROFILE.replace(
                        "[request]",
                        "tls = true\ntls_ca = /home/me/ca.crt\ntls_cert = client.crt\n"
                                + "tls_key = client.key\n[request]"));
        assertThat(TcpLoadTestValidator.validate(spec))
                .hasValueSatisfying(failure -> assertThat(failure.message()).contains("tls_ca"));

        spec.setTls(caAndClient());
        assertThat(TcpLoadTestValidator.validate(spec)).isEmpty();
    }

    @Test
    void theProfileIsGivenOnce() {
        assertRefused(spec -> spec.setProfile(null), "spec.profile", "either profile");
        assertRefused(
                spec -> spec.setProfileFrom(ProfileSource.configMap("p", "k")),
                "spec.profile",
                "either profile");
        assertRefused(spec -> spec.setProfile("  "), "spec.profile", "is empty");
    }

    @Test
    void aBadProfileFailsWithTheLoadersLineAndKey() {
        assertRefused(
                spec -> spec.setProfile(Specs.PROFILE.replace("port = 18101", "port = 70000")),
                "spec.profile",
                "line 3: port: ");
        assertRefused(
                spec ->
                        spec.setProfile(
                                Specs.PROFILE.replace(
                                        "TRACE = COUNTER, 1, 999, 1, %03ld",
                                        "TRACE = COUNTER, 1, 999 1, %03ld")),
                "spec.profile",
                "line 12: TRACE: COUNTER takes 4 values");
    }

    @Test
    void fileParametersMustBeProvidedBySpecFiles() {
        assertRefused(
                spec -> spec.setProfile(WITH_FILE),
                "spec.profile",
                "line 14: ACCT: the data file 'accounts.txt' was not found in spec.files; add it"
                        + " there.");
        TcpLoadTestSpec inline = Specs.valid();
        inline.setProfile(WITH_FILE);
        inline.setFiles(List.of(DataFile.inline("accounts.txt", "1001\n1002\n")));
        assertThat(TcpLoadTestValidator.validate(inline)).isEmpty();
        TcpLoadTestSpec fromConfigMap = Specs.valid();
        fromConfigMap.setProfile(WITH_FILE);
        fromConfigMap.setFiles(
                List.of(DataFile.fromConfigMap("accounts.txt", new ConfigMapKey("data", "a"))));
        assertThat(TcpLoadTestValidator.validate(fromConfigMap)).isEmpty();
    }

    @Test
    void dataFilesAreCheckedByTheirContentAndTheirNameBesideTheProfile() {
        assertRefused(
                spec -> {
                    spec.setProfile(WITH_FILE);
                    spec.setFiles(List.of(DataFile.inline("accounts.txt", "")));
                },
                "spec.profile",
                "line 14: ACCT: the data file accounts.txt is empty; it needs at least one line.");
        TcpLoadTestSpec besideTheProfile = Specs.valid();
        besideTheProfile.setProfile(
                WITH_FILE.replace("FILE, accounts.txt", "FILE, ./accounts.txt"));
        besideTheProfile.setFiles(List.of(DataFile.inline("accounts.txt", "1001\n")));
        assertThat(TcpLoadTestValidator.validate(besideTheProfile)).isEmpty();
    }

    @Test
    void aFileParameterCannotReachTheOperatorsDisk(@TempDir Path folder) throws Exception {
        Path elsewhere = Files.writeString(folder.resolve("secrets.txt"), "x\n");
        assertRefused(
                spec ->
                        spec.setProfile(
                                WITH_FILE.replace("FILE, accounts.txt", "FILE, " + elsewhere)),
                "spec.profile",
                "ACCT: the FILE path must be the name of one of spec.files");
    }

    @Test
    void aProfileFromAConfigMapIsCheckedWhenTheCallerResolvedIt() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setProfile(null);
        spec.setProfileFrom(ProfileSource.configMap("profiles", "pay.ini"));
        assertThat(TcpLoadTestValidator.validate(spec)).isEmpty();
        Optional<Failure> failure =
                TcpLoadTestValidator.validate(
                        spec, new Sources(Optional.of("[common]\nhost = x\n"), Map.of()));
        assertThat(failure).isPresent();
        assertThat(failure.get().field()).isEqualTo("spec.profileFrom");
    }

    @Test
    void connectionsCoverEveryLoopOfEveryRunner() {
        assertRefused(
                spec -> {
                    spec.setRunners(3);
                    spec.setThreads(4);
                    spec.setConnections(11);
                },
                "spec.connections",
                "at least runners x threads (3 x 4 = 12)");
        assertRefused(spec -> spec.setRunners(0), "spec.runners", "at least 1");
        assertRefused(spec -> spec.setThreads(0), "spec.threads", "at least 1");
    }

    @Test
    void durationXorStages() {
        assertRefused(spec -> spec.setDuration(null), "spec.duration", "either duration or stages");
        assertRefused(
                spec -> spec.setStages(List.of(new Stage("10s", 100L))),
                "spec.duration",
                "either duration or stages");
        TcpLoadTestSpec staged = Specs.valid();
        staged.setDuration(null);
        staged.setStages(List.of(new Stage("10s", 100L), new Stage("1m", 0L)));
        assertThat(TcpLoadTestValidator.validate(staged)).isEmpty();
        TcpLoadTestSpec dryRun = Specs.valid();
        dryRun.setDuration(null);
        dryRun.setDryRun(true);
        assertThat(TcpLoadTestValidator.validate(dryRun)).isEmpty();
        assertRefused(
                spec -> {
                    spec.setDryRun(true);
                    spec.setStages(List.of(new Stage("10s", 100L)));
                },
                "spec.duration",
                "either duration or stages");
    }

    @Test
    void durationsParse() {
        assertRefused(spec -> spec.setDuration("10 minutes"), "spec.duration", "not a duration");
        assertRefused(spec -> spec.setDuration("0s"), "spec.duration", "not a duration");
        assertRefused(spec -> spec.setTimeout("5x"), "spec.timeout", "not a duration");
        assertRefused(
                spec -> {
                    spec.setDuration(null);
                    spec.setStages(List.of(new Stage("10s", 1L), new Stage("1d", 1L)));
                },
                "spec.stages[1].duration",
                "'1d'");
    }

    @Test
    void theRateIsPositiveAndSharedByEveryRunner() {
        assertRefused(spec -> spec.setRate(0L), "spec.rate", "above 0");
        assertRefused(
                spec -> {
                    spec.setRunners(4);
                    spec.setConnections(8);
                    spec.setRate(3L);
                },
                "spec.rate",
                "at least the number of runners (4)");
    }

    @Test
    void filesAreNamedOnceAndHaveOneSource() {
        assertRefused(
                spec -> spec.setFiles(List.of(DataFile.inline("../etc/passwd", "x"))),
                "spec.files[0].name",
                "plain file name");
        assertRefused(
                spec ->
                        spec.setFiles(
                                List.of(DataFile.inline("a", "1"), DataFile.inline("a", "2"))),
                "spec.files[1].name",
                "given twice");
        assertRefused(
                spec -> spec.setFiles(List.of(DataFile.inline("profile.ini", "1"))),
                "spec.files[0].name",
                "profile's own name");
        DataFile both = DataFile.inline("a", "1");
        both.setConfigMapKeyRef(new ConfigMapKey("m", "k"));
        assertRefused(
                spec -> spec.setFiles(List.of(both)),
                "spec.files[0]",
                "one of content, configMapKeyRef and secretKeyRef");
    }

    @Test
    void thresholdsAndTargetAreWellFormed() {
        assertRefused(
                spec -> spec.setThresholds(List.of("p99 < 250ms", "p95 < 1s")),
                "spec.thresholds[1]",
                "unknown metric 'p95'");
        assertRefused(
                spec -> spec.setTarget(new TargetOverride("", 80)), "spec.target.host", "missing");
        assertRefused(
                spec -> spec.setTarget(new TargetOverride("svc", 0)), "spec.target.port", "1 to");
    }

    @Test
    void theNameFitsTheRunnerPodsHostNames() {
        TcpLoadTestSpec one = Specs.valid();
        assertThat(validateNamed("a".repeat(53), one)).isEmpty();
        assertThat(validateNamed("a".repeat(54), one).map(Failure::toString))
                .contains(
                        "metadata.name: is 54 characters, more than 53 for 1 runner: the runner"
                                + " pods' host names, NAME-runners-INDEX, are at most 63"
                                + " characters.");
        TcpLoadTestSpec many = Specs.valid();
        many.setRunners(1000);
        many.setThreads(1);
        many.setConnections(1000);
        assertThat(validateNamed("a".repeat(51), many)).isEmpty();
        assertThat(validateNamed("a".repeat(52), many).map(Failure::message))
                .hasValueSatisfying(m -> assertThat(m).contains("more than 51 for 1000 runners"));
        assertThat(validateNamed("pay.load", one).map(Failure::field)).contains("metadata.name");
        // A spec's own failure comes first.
        TcpLoadTestSpec bad = Specs.valid();
        bad.setDuration(null);
        assertThat(validateNamed("pay.load", bad).map(Failure::field)).contains("spec.duration");
    }

    @Test
    void theInlineTextsFitClientSideApplyTogether() {
        TcpLoadTestSpec spec = Specs.valid();
        String half = "1\n".repeat(SpecLimits.INLINE_BYTES_MAX / 4);
        spec.setFiles(List.of(DataFile.inline("a.txt", half), DataFile.inline("b.txt", half)));
        assertThat(TcpLoadTestValidator.validate(spec)).isPresent();
        Failure failure = TcpLoadTestValidator.validate(spec).get();
        assertThat(failure.field()).isEqualTo("spec.profile");
        assertThat(failure.message())
                .contains("spec.profile and spec.files[].content")
                .contains("profileFrom, files[].configMapKeyRef")
                .contains("kubectl apply --server-side");
        spec.setFiles(List.of(DataFile.inline("a.txt", half)));
        assertThat(TcpLoadTestValidator.validate(spec)).isEmpty();
    }

    private static final String MIX_PROFILE =
            String.join(
                    "\n",
                    "[common]",
                    "host = 127.0.0.1",
                    "port = 9000",
                    "[request.authorise]",
                    "weight = 3",
                    "req_body = authorise",
                    "[request.transfer]",
                    "req_body = transfer",
                    "");

    @Test
    void aThresholdNamingARequestOfTheMixIsValid() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.setProfile(MIX_PROFILE);
        spec.setThresholds(
                List.of(
                        "p99{request=transfer} < 200ms",
                        "successRatio{request=authorise} >= 0.99",
                        "tps{request=transfer} >= 10",
                        "p99 < 1s"));

        assertThat(TcpLoadTestValidator.validate(spec)).isEmpty();
    }

    @Test
    void aThresholdNamingARequestTheMixDoesNotHaveNamesTheFieldAndTheRequests() {
        assertRefused(
                spec -> {
                    spec.setProfile(MIX_PROFILE);
                    spec.setThresholds(List.of("p99 < 1s", "p99.9{request=reversal} < 2s"));
                },
                "spec.thresholds[1]",
                "'p99.9{request=reversal} < 2s' names the request 'reversal', which the profile"
                        + " does not have; its requests are authorise, transfer.");
    }

    @Test
    void aThresholdNamingARequestOfAProfileWithoutNamedRequestsSaysWhatToWrite() {
        assertRefused(
                spec -> spec.setThresholds(List.of("p99{request=transfer} < 200ms")),
                "spec.thresholds[0]",
                "names the request 'transfer', which the profile does not have; it has no"
                        + " [request.NAME] sections, so use a threshold on the whole test, such as"
                        + " 'p99 < 200ms'.");
    }

    @Test
    void theCrdsBoundsAreTheValidatorsToo() {
        assertRefused(
                spec -> spec.setDuration("0000000000000000000030s"),
                "spec.duration",
                "not a duration");
        assertRefused(
                spec -> {
                    spec.setProfile(null);
                    spec.setProfileFrom(ProfileSource.configMap("Profiles", "k"));
                },
                "spec.profileFrom.configMapKeyRef.name",
                "not a ConfigMap name");
        assertRefused(
                spec -> {
                    spec.setProfile(null);
                    spec.setProfileFrom(ProfileSource.configMap("profiles", "a:b"));
                },
                "spec.profileFrom.configMapKeyRef.key",
                "not a ConfigMap key");
        assertRefused(
                spec -> spec.setTarget(new TargetOverride("a".repeat(254), 80)),
                "spec.target.host",
                "at most 253");
        assertRefused(
                spec -> spec.setThresholds(List.of("p99 <" + " ".repeat(200) + "1s")),
                "spec.thresholds[0]",
                "at most 200 characters");
        RunnerPodSettings runner = new RunnerPodSettings();
        runner.setAnnotations(Map.of("note", "x".repeat(SpecLimits.ANNOTATION_VALUE_MAX + 1)));
        assertRefused(
                spec -> spec.setRunner(runner), "spec.runner.annotations[note]", "at most 4096");
        RunnerPodSettings crowded = new RunnerPodSettings();
        Map<String, String> labels = new java.util.HashMap<>();
        for (int i = 0; i <= SpecLimits.POD_MAP_ENTRIES_MAX; i++) {
            labels.put("l" + i, "v");
        }
        crowded.setLabels(labels);
        assertRefused(spec -> spec.setRunner(crowded), "spec.runner.labels", "at most 64 entries");
    }

    private static Optional<Failure> validateNamed(String name, TcpLoadTestSpec spec) {
        TcpLoadTest test = Specs.test(name, spec);
        return TcpLoadTestValidator.validate(test, Sources.inline(spec));
    }

    /** A search in place of the valid spec's duration, changed by {@code change}. */
    private static Consumer<TcpLoadTestSpec> search(Consumer<SearchSettings> change) {
        return spec -> {
            spec.setDuration(null);
            spec.setKeepAlive(true);
            SearchSettings search = new SearchSettings(List.of("p99 < 50ms"), 100L, 4_000L);
            change.accept(search);
            spec.setSearch(search);
        };
    }

    @Test
    void aCapacitySearchInPlaceOfTheDurationPasses() {
        TcpLoadTestSpec spec = Specs.valid();
        search(search -> {}).accept(spec);

        assertThat(TcpLoadTestValidator.validate(spec)).isEmpty();
    }

    @Test
    void aCapacitySearchIsRefusedByFieldForEachBadValue() {
        assertRefused(
                spec -> {
                    search(s -> {}).accept(spec);
                    spec.setDuration("10s");
                    spec.setRate(100L);
                },
                "spec.search",
                "leave out spec.duration, spec.rate");
        assertRefused(search(s -> s.setSlo(List.of())), "spec.search.slo", "is missing");
        assertRefused(
                search(s -> s.setSlo(List.of("p99 < 50ms", "p99 <"))),
                "spec.search.slo[1]",
                "p99 <");
        assertRefused(
                search(s -> s.setSlo(List.of("tps >= 100"))),
                "spec.search.slo",
                "bounds no latency and no errors");
        assertRefused(
                search(s -> s.setSlo(List.of("p99{request=pay} < 50ms"))),
                "spec.search.slo[0]",
                "one named request");
        assertRefused(search(s -> s.setMinRate(null)), "spec.search.minRate", "is missing");
        assertRefused(search(s -> s.setMaxRate(100L)), "spec.search.maxRate", "above minRate");
        assertRefused(
                search(s -> s.setMaxRate(2_000_000_000L)), "spec.search.maxRate", "from 1 to");
        assertRefused(
                spec -> {
                    search(s -> s.setMinRate(1L)).accept(spec);
                    spec.setRunners(2);
                    spec.setThreads(1);
                },
                "spec.search.minRate",
                "at least the number of runners");
        assertRefused(search(s -> s.setStep("1500ms")), "spec.search.step", "whole seconds");
        assertRefused(search(s -> s.setStep("soon")), "spec.search.step", "not a duration");
        assertRefused(search(s -> s.setWarmup("2h")), "spec.search.warmup", "at most 1h");
        assertRefused(search(s -> s.setWarmup("-1s")), "spec.search.warmup", "not a duration");
        assertRefused(search(s -> s.setPrecision("80%")), "spec.search.precision", "50%");
        assertRefused(search(s -> s.setPrecision("two")), "spec.search.precision", "2% or 0.02");
    }

    private static void assertRefused(
            Consumer<TcpLoadTestSpec> change, String field, String message) {
        TcpLoadTestSpec spec = Specs.valid();
        change.accept(spec);
        Optional<Failure> failure = TcpLoadTestValidator.validate(spec);
        assertThat(failure).as("validation of the changed spec").isPresent();
        assertThat(failure.get().field()).isEqualTo(field);
        assertThat(failure.get().message()).contains(message);
    }
}
