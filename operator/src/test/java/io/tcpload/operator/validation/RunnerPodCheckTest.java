package io.tcpload.operator.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvFromSourceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.tcpload.operator.children.AllowList;
import io.tcpload.operator.children.RunnerPolicy;
import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.RunnerPodSettings;
import io.tcpload.operator.crd.TcpLoadTestSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The runner pods' extras beside the operator's own volumes, mounts and container, and the
 * operator's allow-lists, as the validator applies them.
 */
class RunnerPodCheckTest {
    private static final String IMAGE = "ghcr.io/tcpload/tcpload-runner:0.1.0";

    @Test
    void extraVolumesAndMountsBesideTheOperatorsOwnPass() {
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner().setVolumes(List.of(emptyDir("data"), emptyDir("certs")));
        spec.getRunner()
                .setVolumeMounts(
                        List.of(mount("data", "/data"), mount("certs", "/etc/tcpload/certs")));
        spec.getRunner().setEnvFrom(List.of(configMapEnv("target-env")));
        spec.getRunner().setInitContainers(List.of(init("wait", "busybox:1.36")));

        assertThat(validate(spec, RunnerPolicy.NONE)).isEmpty();
    }

    @Test
    void aVolumeNamedAsOneOfTheOperatorsIsRefused() {
        assertRefused(
                runner -> runner.setVolumes(List.of(emptyDir("results"))),
                "spec.runner.volumes[0].name",
                "'results' is a volume of the operator's own (profile at /etc/tcpload/profile,"
                        + " results at /results, tmp at /tmp, tcpload-tls at /etc/tcpload/tls); name yours"
                        + " otherwise.");
        assertRefused(
                runner -> runner.setVolumes(List.of(emptyDir("data"), emptyDir("data"))),
                "spec.runner.volumes[1].name",
                "'data' is given twice");
    }

    @Test
    void aMountAtInsideOrAboveTheOperatorsOwnIsRefused() {
        for (String path :
                List.of("/results", "/results/", "/tmp/jvm", "/etc/tcpload", "/", "//tmp/./x")) {
            assertRefused(
                    runner -> {
                        runner.setVolumes(List.of(emptyDir("data")));
                        runner.setVolumeMounts(List.of(mount("data", path)));
                    },
                    "spec.runner.volumeMounts[0].mountPath",
                    "'" + path + "' clashes with the operator's own mount of");
        }
        assertRefused(
                runner -> {
                    runner.setVolumes(List.of(emptyDir("data")));
                    runner.setVolumeMounts(List.of(mount("data", "/etc/tcpload/profile")));
                },
                "spec.runner.volumeMounts[0].mountPath",
                "'/etc/tcpload/profile' clashes with the operator's own mount of profile at"
                        + " /etc/tcpload/profile");
        assertRefused(
                runner -> {
                    runner.setVolumes(List.of(emptyDir("data")));
                    runner.setVolumeMounts(List.of(mount("data", "data")));
                },
                "spec.runner.volumeMounts[0].mountPath",
                "not an absolute path");
        assertRefused(
                runner -> {
                    runner.setVolumes(List.of(emptyDir("data")));
                    runner.setVolumeMounts(List.of(mount("data", "/data/../results")));
                },
                "spec.runner.volumeMounts[0].mountPath",
                "without '..'");
        assertRefused(
                runner -> {
                    runner.setVolumes(List.of(emptyDir("a"), emptyDir("b")));
                    runner.setVolumeMounts(List.of(mount("a", "/data"), mount("b", "/data/")));
                },
                "spec.runner.volumeMounts[1].mountPath",
                "'/data' is mounted twice");
    }

    @Test
    void aMountMustNameAnExtraVolume() {
        assertRefused(
                runner -> runner.setVolumeMounts(List.of(mount("tmp", "/scratch"))),
                "spec.runner.volumeMounts[0].name",
                "'tmp' is a volume of the operator's own");
        assertRefused(
                runner -> {
                    runner.setVolumes(List.of(emptyDir("data")));
                    runner.setVolumeMounts(List.of(mount("date", "/data")));
                },
                "spec.runner.volumeMounts[0].name",
                "'date' names no volume of spec.runner.volumes (data).");
    }

    @Test
    void aMountMayNameAVolumeOfTheOperatorsRunnerDefaults() {
        RunnerPodSettings defaults = new RunnerPodSettings();
        defaults.setVolumes(List.of(emptyDir("ca")));
        RunnerPolicy policy =
                new RunnerPolicy(
                        IMAGE,
                        defaults,
                        AllowList.any(RunnerPolicy.IMAGES_VARIABLE),
                        AllowList.any(RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE));
        TcpLoadTestSpec spec = Specs.valid();
        spec.getRunner().setVolumeMounts(List.of(mount("ca", "/etc/ssl/ca")));

        assertThat(validate(spec, policy)).isEmpty();
        assertThat(validate(spec, RunnerPolicy.NONE))
                .hasValueSatisfying(
                        f ->
                                assertThat(f.toString())
                                        .isEqualTo(
                                                "spec.runner.volumeMounts[0].name: 'ca' names no"
                                                        + " volume of spec.runner.volumes or of the"
                                                        + " operator's runner defaults (there are"
                                                        + " none)."));
    }

    @Test
    void initContainersAndEnvFromAreCheckedForWhatThePodNeeds() {
        assertRefused(
                runner -> runner.setInitContainers(List.of(init("runner", "busybox"))),
                "spec.runner.initContainers[0].name",
                "'runner' is the runner container's own name");
        assertRefused(
                runner ->
                        runner.setInitContainers(
                                List.of(init("wait", "busybox"), init("wait", "busybox"))),
                "spec.runner.initContainers[1].name",
                "'wait' is given twice");
        assertRefused(
                runner -> runner.setInitContainers(List.of(init("wait", null))),
                "spec.runner.initContainers[0].image",
                "is missing");
        assertRefused(
                runner -> runner.setEnvFrom(List.of(new EnvFromSource())),
                "spec.runner.envFrom[0]",
                "give either configMapRef or secretRef");
        assertRefused(
                runner -> runner.setEnvFrom(List.of(configMapEnv(""))),
                "spec.runner.envFrom[0].configMapRef.name",
                "is missing");
    }

    @Test
    void anImageOffTheAllowListIsRefusedNamingTheList() {
        RunnerPolicy policy =
                new RunnerPolicy(
                        IMAGE,
                        new RunnerPodSettings(),
                        AllowList.parse(
                                "registry.example.com/load/*, ghcr.io/tcpload/tcpload-runner:0.1.0",
                                RunnerPolicy.IMAGES_VARIABLE),
                        AllowList.any(RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE));
        TcpLoadTestSpec spec = Specs.valid();
        assertThat(validate(spec, policy)).as("the operator's own image").isEmpty();
        spec.getRunner().setImage("registry.example.com/load/runner:2");
        assertThat(validate(spec, policy)).as("a prefix").isEmpty();

        spec.getRunner().setImage("docker.io/someone/miner:latest");
        assertThat(validate(spec, policy))
                .hasValueSatisfying(
                        f ->
                                assertThat(f.toString())
                                        .isEqualTo(
                                                "spec.runner.image: 'docker.io/someone/miner:latest'"
                                                        + " is not on the operator's allow-list of"
                                                        + " runner images"
                                                        + " (TCPLOAD_ALLOWED_RUNNER_IMAGES:"
                                                        + " registry.example.com/load/*,"
                                                        + " ghcr.io/tcpload/tcpload-runner:0.1.0);"
                                                        + " ask the operator's administrators, or"
                                                        + " use one on the list."));

        spec.getRunner().setImage(null);
        spec.getRunner()
                .setInitContainers(
                        List.of(
                                init("setup", "registry.example.com/load/setup:1"),
                                init("fetch", "busybox:1.36")));
        assertThat(validate(spec, policy))
                .hasValueSatisfying(
                        f -> {
                            assertThat(f.field()).isEqualTo("spec.runner.initContainers[1].image");
                            assertThat(f.message())
                                    .startsWith(
                                            "'busybox:1.36' is not on the operator's allow-list");
                        });
    }

    @Test
    void aServiceAccountOffTheAllowListIsRefusedNamingTheList() {
        RunnerPolicy policy =
                new RunnerPolicy(
                        IMAGE,
                        new RunnerPodSettings(),
                        AllowList.any(RunnerPolicy.IMAGES_VARIABLE),
                        AllowList.parse("loader, perf-*", RunnerPolicy.SERVICE_ACCOUNTS_VARIABLE));
        TcpLoadTestSpec spec = Specs.valid();
        assertThat(validate(spec, policy))
                .as("no account named: the namespace's default")
                .isEmpty();
        spec.getRunner().setServiceAccountName("perf-runner");
        assertThat(validate(spec, policy)).isEmpty();

        spec.getRunner().setServiceAccountName("cluster-admin-bot");
        assertThat(validate(spec, policy))
                .hasValueSatisfying(
                        f -> {
                            assertThat(f.field()).isEqualTo("spec.runner.serviceAccountName");
                            assertThat(f.message())
                                    .isEqualTo(
                                            "'cluster-admin-bot' is not on the operator's"
                                                    + " allow-list of runner service accounts"
                                                    + " (TCPLOAD_ALLOWED_RUNNER_SERVICE_ACCOUNTS:"
                                                    + " loader, perf-*); ask the operator's"
                                                    + " administrators, or use one on the list.");
                        });
    }

    @Test
    void allowListsTakeExactNamesAndPrefixesEndingInAStar() {
        AllowList list = AllowList.parse(" a/b:1 , c/* ,", "X");
        assertThat(list.patterns()).containsExactly("a/b:1", "c/*");
        assertThat(list.allows("a/b:1")).isTrue();
        assertThat(list.allows("a/b:2")).isFalse();
        assertThat(list.allows("c/d:1")).isTrue();
        assertThat(list.allows("cd/e")).isFalse();
        assertThat(list.allows(null)).isFalse();
        assertThat(AllowList.parse("", "X").allows("anything")).isTrue();
        assertThat(AllowList.parse("*", "X").allows("anything")).isTrue();
        assertThatThrownBy(() -> AllowList.parse("a/*/b", "TCPLOAD_ALLOWED_RUNNER_IMAGES"))
                .hasMessage(
                        "TCPLOAD_ALLOWED_RUNNER_IMAGES: 'a/*/b' has a '*' before its end; an entry"
                                + " is an exact name or a prefix ending in '*'");
    }

    private static Optional<Failure> validate(TcpLoadTestSpec spec, RunnerPolicy policy) {
        return TcpLoadTestValidator.validate(Specs.test("pay", spec), Sources.inline(spec), policy);
    }

    private static void assertRefused(
            Consumer<RunnerPodSettings> change, String field, String message) {
        TcpLoadTestSpec spec = Specs.valid();
        change.accept(spec.getRunner());
        Optional<Failure> failure = validate(spec, RunnerPolicy.NONE);
        assertThat(failure).as("validation of the changed spec").isPresent();
        assertThat(failure.get().field()).isEqualTo(field);
        assertThat(failure.get().message()).contains(message);
    }

    private static Volume emptyDir(String name) {
        return new VolumeBuilder().withName(name).withNewEmptyDir().endEmptyDir().build();
    }

    private static VolumeMount mount(String name, String path) {
        return new VolumeMountBuilder().withName(name).withMountPath(path).build();
    }

    private static Container init(String name, String image) {
        return new ContainerBuilder().withName(name).withImage(image).build();
    }

    private static EnvFromSource configMapEnv(String name) {
        return new EnvFromSourceBuilder()
                .withNewConfigMapRef()
                .withName(name)
                .endConfigMapRef()
                .build();
    }
}
