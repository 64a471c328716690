package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartGateTest {
    @Test
    void theFirstInstantWinsAndTheSameOneIsAcceptedAgain() {
        StartGate gate = StartGate.awaiting();

        assertThat(gate.open(1_000)).isTrue();
        assertThat(gate.open(1_000)).isTrue();
        assertThat(gate.open(2_000)).isFalse();
        assertThat(gate.startAtEpochMs()).isEqualTo(1_000);
    }

    @Test
    void theLoadBeginsAtTheInstantNotBeforeAndWithinMilliseconds() throws Exception {
        StartGate gate = StartGate.awaiting();
        CompletableFuture<Long> began =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return gate.await();
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        while (!gate.arrived()) {
            Thread.onSpinWait();
        }
        long atEpochMs = System.currentTimeMillis() + 200;

        gate.open(atEpochMs);

        long beganEpochUs = began.get(5, TimeUnit.SECONDS);
        assertThat(beganEpochUs).isBetween(atEpochMs * 1000, atEpochMs * 1000 + 20_000);
    }

    @Test
    void aPastInstantBeginsAtOnce() throws Exception {
        StartGate gate = StartGate.awaiting();
        gate.open(System.currentTimeMillis() - 60_000);

        long beganEpochUs = gate.await();

        assertThat(beganEpochUs)
                .isCloseTo(StartGate.nowEpochUs(), org.assertj.core.data.Offset.offset(1_000_000L));
    }

    @Test
    void aCancelledGateNeverOpens() {
        StartGate gate = StartGate.awaiting();
        gate.cancel();

        assertThatThrownBy(gate::await).isInstanceOf(CancellationException.class);
        assertThat(gate.open(1_000)).isFalse();
    }
}
