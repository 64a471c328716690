package io.tcpload.runner.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WorkerQueueTest {
    private static final long MS = 1_000_000L;

    /**
     * Requests arriving evenly at {@code ratePerSecond} for one second: the last one's done time.
     */
    private static long lastDoneNs(WorkerQueue queue, double ratePerSecond, int requests) {
        long done = 0;
        for (int k = 0; k < requests; k++) {
            done = queue.doneNs(Math.round(k * 1e9 / ratePerSecond));
        }
        return done;
    }

    @Test
    void belowCapacityNoRequestWaits() {
        WorkerQueue queue = new WorkerQueue(8, 4 * MS);
        assertThat(queue.capacityPerSecond()).isEqualTo(2000.0);
        for (int k = 0; k < 1900; k++) {
            long arrival = Math.round(k * 1e9 / 1900);
            assertThat(queue.doneNs(arrival) - arrival).isEqualTo(4 * MS);
        }
    }

    @Test
    void pastCapacityTheQueueGrowsAndThroughputIsTheCapacity() {
        WorkerQueue queue = new WorkerQueue(8, 4 * MS);
        // 3000 arrivals in one second against 2000 a second: 375 requests of 4 ms for each worker,
        // so the last is done 1.5 s after the first arrived (plus the few milliseconds over which
        // the eight workers took their first request).
        long last = lastDoneNs(queue, 3000, 3000);
        assertThat(last).isBetween(1500 * MS, 1503 * MS);
    }

    @Test
    void requestsAreServedInArrivalOrder() {
        WorkerQueue queue = new WorkerQueue(2, 10 * MS);
        // Five at once: two start now, two at 10 ms, one at 20 ms; done times never decrease.
        long[] done = new long[5];
        for (int k = 0; k < 5; k++) {
            done[k] = queue.doneNs(0);
        }
        assertThat(done).containsExactly(10 * MS, 10 * MS, 20 * MS, 20 * MS, 30 * MS);
        // A worker idle since then starts a late request at once.
        assertThat(queue.doneNs(100 * MS)).isEqualTo(110 * MS);
    }

    @Test
    void justAboveCapacityTheWaitGrowsSteadily() {
        WorkerQueue queue = new WorkerQueue(1, 5 * MS);
        // 210 a second against 200: ten more a second than it serves, 50 ms more wait each second.
        long wait1 = 0;
        long wait2 = 0;
        for (int k = 0; k < 420; k++) {
            long arrival = Math.round(k * 1e9 / 210);
            long wait = queue.doneNs(arrival) - arrival;
            if (k == 209) {
                wait1 = wait;
            }
            if (k == 419) {
                wait2 = wait;
            }
        }
        assertThat(wait2 - wait1).isBetween(45 * MS, 55 * MS);
    }

    @Test
    void refusesNoWorkersOrNoServiceTime() {
        assertThatThrownBy(() -> new WorkerQueue(0, MS)).hasMessageContaining("workers");
        assertThatThrownBy(() -> new WorkerQueue(1, 0)).hasMessageContaining("service time");
    }

    @Test
    void optionsTakeWorkersAndServiceTimeTogether() {
        ServeOptions options = ServeOptions.defaults().withWorkers(8, 4);
        assertThat(options.capacityPerSecond()).isEqualTo(2000.0);
        assertThat(options.withPort(5).workers()).isEqualTo(8);
        assertThatThrownBy(() -> ServeOptions.defaults().withWorkers(8, 0))
                .hasMessageContaining("go together");
        assertThatThrownBy(() -> ServeOptions.defaults().withWorkers(0, 4))
                .hasMessageContaining("go together");
        assertThatThrownBy(() -> ServeOptions.defaults().withWorkers(-1, 4))
                .hasMessageContaining("--workers");
    }
}
