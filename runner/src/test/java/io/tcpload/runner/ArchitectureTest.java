package io.tcpload.runner;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runner's shape as rules: the pure packages (what is asked, checked, parsed, built, counted
 * and printed) touch no sockets, event loops or Kubernetes, and no package depends on another in a
 * circle. {@code io.netty.buffer} and {@code io.netty.util} stay allowed: requests are written
 * straight into {@code ByteBuf}s.
 */
class ArchitectureTest {
    /** The packages of pure logic: no I/O of their own. */
    static final String[] PURE = {
        "io.tcpload.runner.contract..",
        "io.tcpload.runner.codec..",
        "io.tcpload.runner.correlate..",
        "io.tcpload.runner.plan..",
        "io.tcpload.runner.profile..",
        "io.tcpload.runner.template..",
        "io.tcpload.runner.mix..",
        "io.tcpload.runner.rate..",
        "io.tcpload.runner.stats..",
        "io.tcpload.runner.format..",
        "io.tcpload.runner.report..",
        "io.tcpload.runner.html.."
    };

    /** Channels, event loops and transports: what only the engine, endpoint and target touch. */
    static final String[] IO = {
        "io.netty.channel..",
        "io.netty.bootstrap..",
        "io.netty.incubator..",
        "java.nio.channels..",
        "io.fabric8.kubernetes.client..",
        "io.javaoperatorsdk.."
    };

    private static JavaClasses runner;

    @BeforeAll
    static void importRunner() {
        runner =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.tcpload.runner");
    }

    @Test
    void purePackagesTouchNoChannelsTransportsOrKubernetes() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(IO)
                .because("pure logic is tested without sockets and event loops")
                .check(runner);
    }

    @Test
    void theRunnerNeverReachesIntoTheOperator() {
        noClasses()
                .that()
                .resideInAPackage("io.tcpload.runner..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.tcpload.operator..")
                .check(runner);
    }

    @Test
    void packagesDependOnEachOtherWithoutCycles() {
        slices().matching("io.tcpload.runner.(*)..").should().beFreeOfCycles().check(runner);
    }
}
