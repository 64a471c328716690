package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.Thread.State;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
    void theInstantBecomesADeadlineOnTheMonotonicClock() throws Exception {
        StartGate gate = StartGate.awaiting();
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<Long> deadline =
                CompletableFuture.supplyAsync(
                        () -> {
                            waiter.set(Thread.currentThread());
                            try {
                                return gate.awaitDeadlineNs();
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        // Opened while the engine's thread waits at the gate, as in a distributed start.
        await().atMost(Duration.ofSeconds(5))
                .until(() -> waiter.get() != null && waiter.get().getState() == State.WAITING);
        long atEpochUs = StartGate.nowEpochUs() + 300_000;
        long expectedNs = System.nanoTime() + 300_000_000;

        gate.open(atEpochUs / 1000);

        // The instant is whole milliseconds: up to 1 ms earlier than asked, and the two clocks
        // were read a little apart.
        assertThat(deadline.get(5, TimeUnit.SECONDS))
                .isBetween(expectedNs - 3_000_000, expectedNs + 2_000_000);
    }

    @Test
    void waitingForADeadlineEndsAtItNotBefore() {
        long deadlineNs = System.nanoTime() + 50_000_000;

        StartGate.waitUntil(deadlineNs);

        long lateNs = System.nanoTime() - deadlineNs;
        assertThat(lateNs).isNotNegative().isLessThan(20_000_000);
    }

    @Test
    void aPastInstantIsADeadlineAlreadyReached() throws Exception {
        StartGate gate = StartGate.awaiting();
        gate.open(System.currentTimeMillis() - 60_000);

        long deadlineNs = gate.awaitDeadlineNs();

        assertThat(deadlineNs).isLessThan(System.nanoTime() - 50_000_000_000L);
        long beforeNs = System.nanoTime();
        StartGate.waitUntil(deadlineNs);
        assertThat(System.nanoTime() - beforeNs).isLessThan(1_000_000_000);
    }

    /**
     * A runner whose clock is 50 ms ahead of the orchestrator's, told so with the instant, reaches
     * its deadline when the orchestrator's clock does: 50 ms later on its own clock.
     */
    @Test
    void anInstantOnAnotherClockIsMovedByTheOffset() throws Exception {
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofMillis(50));
        StartGate gate = StartGate.awaiting(ahead);
        long atMs = System.currentTimeMillis() + 10_000;

        assertThat(gate.open(atMs, 50_000)).isTrue();
        assertThat(gate.open(atMs, 7)).as("the same instant: the first offset stays").isTrue();
        long deadlineNs = gate.awaitDeadlineNs();
        long untilNs = deadlineNs - System.nanoTime();
        long expectedNs = (atMs * 1000 - StartGate.nowEpochUs()) * 1000;

        assertThat(gate.startAtEpochMs()).isEqualTo(atMs);
        assertThat(gate.clockOffsetUs()).isEqualTo(50_000);
        assertThat(Math.abs(untilNs - expectedNs)).isLessThan(5_000_000);
        assertThat(gate.epochUs() - StartGate.nowEpochUs()).isBetween(45_000L, 55_000L);
    }

    @Test
    void anImmediateGateNeedsNoInstant() throws Exception {
        StartGate gate = StartGate.immediate();

        assertThat(gate.awaitsInstant()).isFalse();
        assertThat(gate.awaitDeadlineNs()).isLessThanOrEqualTo(System.nanoTime());
        assertThat(StartGate.awaiting().awaitsInstant()).isTrue();
    }

    @Test
    void aCancelledGateNeverOpens() throws Exception {
        StartGate gate = StartGate.awaiting();
        gate.cancel();

        assertThatThrownBy(gate::awaitDeadlineNs).isInstanceOf(CancellationException.class);
        assertThat(gate.open(1_000)).isFalse();
        assertThat(gate.awaitCancel(System.nanoTime() + 60_000_000_000L)).isTrue();
    }

    @Test
    void aCancelEndsTheWaitForAFarInstantAtOnce() throws Exception {
        StartGate gate = StartGate.awaiting();
        gate.open(System.currentTimeMillis() + 600_000);
        long deadlineNs = gate.awaitDeadlineNs();
        CompletableFuture<Boolean> cancelled =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return gate.awaitCancel(deadlineNs);
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });

        gate.cancel();

        assertThat(cancelled.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void withoutACancelTheWaitEndsAtTheDeadline() throws Exception {
        StartGate gate = StartGate.awaiting();

        assertThat(gate.awaitCancel(System.nanoTime() + 20_000_000)).isFalse();
    }
}
