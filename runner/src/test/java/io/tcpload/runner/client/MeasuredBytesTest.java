package io.tcpload.runner.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bytes of one connection's stream that a measured run counts, by stream offsets alone. */
class MeasuredBytesTest {
    @Test
    void bytesAnsweringMeasuredRequestsCountAsTheyArrive() {
        MeasuredBytes bytes = new MeasuredBytes();

        assertThat(bytes.received(21, false)).isEqualTo(21);
        assertThat(bytes.received(30, false)).isEqualTo(9);
        assertThat(bytes.received(30, false)).isZero();
    }

    @Test
    void aWarmupResponseIsHeldBackThenDroppedAndTheBytesBehindItCount() {
        MeasuredBytes bytes = new MeasuredBytes();
        // Before the warm-up ended: counted, into figures the warm-up's end drops.
        assertThat(bytes.received(10, false)).isEqualTo(10);

        // The rest of that response and all of a measured one in one read.
        assertThat(bytes.received(63, true)).isZero();
        bytes.warmupAnswered(21);
        assertThat(bytes.received(63, false)).isEqualTo(42);
    }

    @Test
    void warmupResponsesInARowAreAllDropped() {
        MeasuredBytes bytes = new MeasuredBytes();

        assertThat(bytes.received(50, true)).isZero();
        bytes.warmupAnswered(21);
        // The next response in flight is a warm-up's too.
        assertThat(bytes.received(50, true)).isZero();
        bytes.warmupAnswered(42);
        assertThat(bytes.received(50, false)).isEqualTo(8);
    }

    @Test
    void aNewConnectionStartsItsStreamAgain() {
        MeasuredBytes bytes = new MeasuredBytes();
        assertThat(bytes.received(100, false)).isEqualTo(100);

        bytes.reset();

        assertThat(bytes.received(21, false)).isEqualTo(21);
    }
}
