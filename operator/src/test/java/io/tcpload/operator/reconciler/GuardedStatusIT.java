package io.tcpload.operator.reconciler;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.operator.children.Specs;
import io.tcpload.operator.crd.Phase;
import io.tcpload.operator.crd.TcpLoadTest;
import io.tcpload.operator.crd.TcpLoadTestStatus;
import io.tcpload.operator.kubelet.OperatorHarness;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The race of two reconciles over one start: the first records its instant; the second, handed the
 * copy read before that write (a cache a moment behind), computes an instant of its own and tries
 * to record it. Its write is refused, and the instant stays the first, in the mock API server.
 */
class GuardedStatusIT {
    @Test
    void aStaleCopyCannotRecordASecondInstant(@TempDir Path dir) throws Exception {
        try (OperatorHarness world = new OperatorHarness(dir, false)) {
            world.createNamespace("race");
            TcpLoadTest created =
                    world.client
                            .resource(inNamespace(Specs.test("race", Specs.valid()), "race"))
                            .create();
            // As the API server holds it now: the mock moves the version after a create.
            TcpLoadTest read =
                    world.client
                            .resources(TcpLoadTest.class)
                            .inNamespace("race")
                            .withName("race")
                            .get();
            TcpLoadTest stale = read;

            Optional<TcpLoadTest> first =
                    GuardedStatus.write(world.client, read, starting(1_700_000_000_500L));
            Optional<TcpLoadTest> second =
                    GuardedStatus.write(world.client, stale, starting(1_700_000_000_900L));

            assertThat(first).isPresent();
            assertThat(second).as("the stale copy's write").isEmpty();
            TcpLoadTest stored =
                    world.client
                            .resources(TcpLoadTest.class)
                            .inNamespace("race")
                            .withName("race")
                            .get();
            assertThat(stored.getStatus().getStartAtMs()).isEqualTo(1_700_000_000_500L);

            // Over the version it wrote, the first goes on.
            assertThat(GuardedStatus.write(world.client, first.get(), running(stored))).isPresent();
        }
    }

    private static TcpLoadTest inNamespace(TcpLoadTest test, String namespace) {
        test.getMetadata().setNamespace(namespace);
        return test;
    }

    private static TcpLoadTestStatus starting(long startAtMs) {
        TcpLoadTestStatus status = new TcpLoadTestStatus();
        status.setPhase(Phase.Starting);
        status.setStartAtMs(startAtMs);
        return status;
    }

    private static TcpLoadTestStatus running(TcpLoadTest stored) {
        TcpLoadTestStatus status = stored.getStatus();
        status.setPhase(Phase.Running);
        return status;
    }
}
