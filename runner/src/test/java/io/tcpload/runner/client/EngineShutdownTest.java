package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.profile.Profile;
import io.tcpload.runner.profile.Target;
import io.tcpload.runner.serve.DemoServer;
import io.tcpload.runner.serve.ServeOptions;
import io.tcpload.runner.stats.RunSummary;
import io.tcpload.runner.testing.Corpus;
import io.tcpload.runner.testing.EngineRun;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The end of a run with every connection waiting for a response: the engine closes them all before
 * its event loops end, so no close is left to a terminated loop (which Netty reports on stderr with
 * a stack trace after the report).
 */
class EngineShutdownTest {
    private final Logger netty = Logger.getLogger("io.netty");
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Handler recorder =
            new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                        warnings.add(record);
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };

    @BeforeEach
    void record() {
        netty.addHandler(recorder);
    }

    @AfterEach
    void stopRecording() {
        netty.removeHandler(recorder);
    }

    @Test
    void connectionsOpenWhenTheRunEndsAreClosedBeforeTheLoopsEnd() throws Exception {
        for (int run = 0; run < 8; run++) {
            String name = run % 2 == 0 ? "02_xml_body" : "05_json_code";
            Profile profile = Corpus.profile(name, 1).withKeepAlive(true);
            try (DemoServer server =
                    DemoServer.start(profile, ServeOptions.defaults().withFailureRate(0.5))) {
                Profile local = profile.withTarget(new Target("127.0.0.1", server.port()));
                RunSummary summary =
                        EngineRun.run(
                                local,
                                new LoadConfig(1, 2, 2_000, 5_000, true, 4, 0),
                                () -> server.requestsServed() >= 150);
                assertThat(summary.counts().errors()).isZero();
            }
        }
        assertThat(warnings)
                .extracting(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage())
                .isEmpty();
    }
}
