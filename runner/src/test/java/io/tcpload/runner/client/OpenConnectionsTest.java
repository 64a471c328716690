package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.client.ProgressListener.Progress;
import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The open-connection level carried by each second's progress. */
class OpenConnectionsTest {
    private static final String PROFILE =
            "[common]\nhost = 127.0.0.1\nport = 1\nkeepalive = true\n"
                    + "[request]\nreq_body = this is a test\n[response]\n";

    @Test
    void keptAliveConnectionsStayOpenDuringTheRunAndAreClosedAtItsEnd() throws Exception {
        Profile profile = Corpus.parse(PROFILE);
        try (DemoServer server =
                DemoServer.start(profile, ServeOptions.defaults().withBindHost("127.0.0.1"))) {
            List<Progress> seconds = new CopyOnWriteArrayList<>();
            RunSummary summary =
                    EngineRun.run(
                            profile.withTarget(new Target("127.0.0.1", server.port())),
                            EngineRun.config(2, 5, 2_500, 5_000, true),
                            progress -> seconds.add(copy(progress)));

            assertThat(summary.counts().requests()).isPositive();
            assertThat(summary.counts().connectErrors()).isZero();
            assertThat(seconds).hasSizeGreaterThanOrEqualTo(2);
            // The first whole second is well after the gradual opening of five connections.
            assertThat(seconds.get(0).openConnections()).isEqualTo(5);
            // The last sample is drained after the loops stopped and let go of every channel.
            assertThat(seconds.get(seconds.size() - 1).openConnections()).isZero();
        }
    }

    /** The histograms are valid only during the call; the test keeps only the plain fields. */
    private static Progress copy(Progress progress) {
        return new Progress(
                progress.second(),
                progress.cumulative(),
                null,
                null,
                progress.errors(),
                progress.openConnections());
    }
}
