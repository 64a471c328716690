package io.tcpload.operator;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.fabric8.kubernetes.client.CustomResource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's shape as rules: the state machine, validation, merge and the desired children are
 * pure (they read and build Kubernetes model objects, never call an API server, a runner or the
 * SDK), the runner never depends on the operator, and no package depends on another in a circle.
 */
class ArchitectureTest {
    static final String[] PURE = {
        "io.tcpload.operator.crd..",
        "io.tcpload.operator.validation..",
        "io.tcpload.operator.status..",
        "io.tcpload.operator.results..",
        "io.tcpload.operator.children.."
    };

    private static JavaClasses classes;

    /** Both modules: in a reactor build the runner comes as its jar, so jars are imported too. */
    @BeforeAll
    static void importBoth() {
        classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        // The runner's classes are a jar when the whole build runs (a folder when
                        // only the operator's tests do): its main jar is imported, no other jar.
                        .withImportOption(
                                location ->
                                        !location.isJar()
                                                || (location.contains("tcpload-runner")
                                                        && !location.contains("-tests.jar")))
                        .importPackages("io.tcpload");
    }

    @Test
    void purePackagesCallNoApiServerRunnerOrSdk() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat(
                        resideInAnyPackage(
                                        "io.fabric8.kubernetes.client..",
                                        "io.javaoperatorsdk..",
                                        "java.net.http..",
                                        "io.netty.channel..",
                                        "io.tcpload.runner.client..",
                                        "io.tcpload.runner.session..",
                                        "io.tcpload.runner.endpoint..")
                                // The custom resource's base class is a model type.
                                .and(not(equivalentTo(CustomResource.class))))
                .because("the state machine, validation and merge are tested without a cluster")
                .check(classes);
    }

    /**
     * The runner pods' arguments are written and read through the runner's typed contract ({@code
     * RunnerInvocation}, {@code DryRunOptions}), never its command line's own flags; only local
     * mode, which runs the runner in-process, uses its command's classes.
     */
    @Test
    void theOperatorAsksItsRunnersOnlyThroughTheTypedContract() {
        noClasses()
                .that()
                .resideInAPackage("io.tcpload.operator..")
                .and()
                .resideOutsideOfPackage("io.tcpload.operator.local..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.tcpload.runner.cli..", "io.tcpload.runner.dryrun..")
                .because("a pod's arguments round-trip through the contract's types")
                .check(classes);
    }

    @Test
    void theRunnerNeverDependsOnTheOperator() {
        noClasses()
                .that()
                .resideInAPackage("io.tcpload.runner..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.tcpload.operator..")
                .check(classes);
    }

    @Test
    void packagesDependOnEachOtherWithoutCycles() {
        slices().matching("io.tcpload.(*).(*)..").should().beFreeOfCycles().check(classes);
    }
}
