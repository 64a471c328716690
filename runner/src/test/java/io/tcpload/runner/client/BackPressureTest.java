package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.cli.UrlProfile;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.EngineRun;
import io.tcpload.runner.testing.ScriptedServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine writes no more to a connection than it can take: against a server that never reads,
 * even a pipeline of a million requests leaves only what the socket buffers hold, plus Netty's
 * write high-water mark, queued on the connection.
 */
class BackPressureTest {
    /** Far above the loopback socket buffers and Netty's 64 KiB high-water mark together. */
    private static final long MAX_QUEUED_BYTES = 32L * 1024 * 1024;

    @Test
    void aHugePipelineAgainstAServerThatNeverReadsQueuesABoundedAmount() throws Exception {
        try (ScriptedServer server =
                new ScriptedServer(
                        (index, in, out) -> {
                            // Never reads, until after the run (3 s) is over.
                            Thread.sleep(4_000);
                        })) {
            // About 200 bytes a request: a million of them would be 200 MB.
            String path = "/" + "p".repeat(150);
            Profile profile =
                    UrlProfile.build(
                            "http://127.0.0.1:" + server.port() + path, "GET", List.of(), "");
            RunSummary summary =
                    EngineRun.run(profile, new LoadConfig(1, 2, 3_000, 60_000, true, 1_000_000, 0));

            assertThat(summary.counts().requests()).isZero();
            assertThat(summary.counts().errors()).isZero();
            // Everything written was queued on the two connections and never left.
            assertThat(summary.counts().bytesWritten())
                    .isPositive()
                    .isLessThan(2 * MAX_QUEUED_BYTES);
        }
    }
}
