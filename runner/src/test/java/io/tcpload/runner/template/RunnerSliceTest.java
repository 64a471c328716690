package io.tcpload.runner.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunnerSliceTest {

    @Test
    void blocksAreContiguousNearlyEqualAndCoverEverything() {
        long size = 1_000_003;
        int count = 7;
        long expectedStart = 0;
        for (int i = 0; i < count; i++) {
            RunnerSlice slice = new RunnerSlice(i, count);
            assertThat(slice.blockStart(size)).isEqualTo(expectedStart);
            long blockSize = slice.blockEnd(size) - slice.blockStart(size);
            assertThat(blockSize).isBetween(size / count, size / count + 1);
            expectedStart = slice.blockEnd(size);
        }
        assertThat(expectedStart).isEqualTo(size);
    }

    @Test
    void hugeSequencesDoNotOverflow() {
        RunnerSlice last = new RunnerSlice(2, 3);
        assertThat(last.blockEnd(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        // floor(2 * (2^63 - 1) / 3)
        assertThat(last.blockStart(Long.MAX_VALUE)).isEqualTo(6148914691236517204L);
    }

    @Test
    void aSequenceShorterThanTheRunnerCountIsWholeForEveryRunner() {
        RunnerSlice slice = new RunnerSlice(3, 4);
        assertThat(slice.blockStart(3)).isZero();
        assertThat(slice.blockEnd(3)).isEqualTo(3);
    }

    @Test
    void singleUsesEverything() {
        assertThat(RunnerSlice.SINGLE.blockStart(10)).isZero();
        assertThat(RunnerSlice.SINGLE.blockEnd(10)).isEqualTo(10);
    }

    @Test
    void rejectsImpossibleSlices() {
        assertThatThrownBy(() -> new RunnerSlice(0, 0))
                .hasMessage("runner count 0 is not positive");
        assertThatThrownBy(() -> new RunnerSlice(3, 3))
                .hasMessage("runner index 3 is outside 0..2");
        assertThatThrownBy(() -> new RunnerSlice(-1, 3))
                .hasMessage("runner index -1 is outside 0..2");
    }
}
