package io.tcpload.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import org.junit.jupiter.api.Test;

class LoopStatsTest {
    @Test
    void openConnectionsIsALevelThatDrainingDoesNotReset() {
        LoopStats stats = new LoopStats();
        stats.connectionOpened();
        stats.connectionOpened();
        stats.connectionOpened();
        stats.connectionClosed();

        stats.drainInto(
                Histograms.create(), Histograms.create(), Histograms.create(), new HashMap<>());

        assertThat(stats.openConnections()).isEqualTo(2);
        stats.connectionClosed();
        stats.connectionClosed();
        assertThat(stats.openConnections()).isZero();
    }
}
