package io.tcpload.runner.template;

import static io.tcpload.runner.testing.Corpus.buildText;
import static io.tcpload.runner.testing.Corpus.profile;
import static io.tcpload.runner.testing.Corpus.raw;
import static org.assertj.core.api.Assertions.assertThat;

import io.tcpload.runner.format.IntFormat;
import io.tcpload.runner.profile.LengthType;
import io.tcpload.runner.profile.ParameterSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CounterSequenceTest {

    private static ParameterSpec.Counter counter(long start, long end, long step) {
        return new ParameterSpec.Counter("C", 0, start, end, step, IntFormat.parse("%ld"));
    }

    private static List<Long> take(CounterSequence sequence, int n) {
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            values.add(sequence.next());
        }
        return values;
    }

    @Test
    void wrapsToExactlyStart() {
        assertThat(take(new CounterSequence(counter(1, 3, 1), RunnerSlice.SINGLE), 7))
                .containsExactly(1L, 2L, 3L, 1L, 2L, 3L, 1L);
        assertThat(take(new CounterSequence(counter(100, 110, 4), RunnerSlice.SINGLE), 7))
                .containsExactly(100L, 104L, 108L, 100L, 104L, 108L, 100L);
    }

    @Test
    void firstValueIsTheLargerOfStartAndStepAsInWrktcp() {
        // wrktcp starts from 0 and adds step before the first use.
        assertThat(take(new CounterSequence(counter(0, 3, 1), RunnerSlice.SINGLE), 8))
                .containsExactly(1L, 2L, 3L, 0L, 1L, 2L, 3L, 0L);
        assertThat(take(new CounterSequence(counter(2, 20, 5), RunnerSlice.SINGLE), 9))
                .containsExactly(5L, 10L, 15L, 20L, 2L, 7L, 12L, 17L, 2L);
    }

    @Test
    void leadInValuesOfDifferentRunnersStayInTheirOwnRanges() {
        // Cycle -97, -87, ..., 3 (11 values); blocks of 5 and 6. Both runners would start at
        // max(lo, step) = 10 were it not for the ranges: -97..-48 and -47..end.
        ParameterSpec.Counter spec = counter(-97, 10, 10);
        assertThat(take(new CounterSequence(spec, new RunnerSlice(0, 2)), 6))
                .containsExactly(-97L, -87L, -77L, -67L, -57L, -97L);
        assertThat(take(new CounterSequence(spec, new RunnerSlice(1, 2)), 8))
                .containsExactly(10L, -47L, -37L, -27L, -17L, -7L, 3L, -47L);
    }

    @Test
    void aStepLargerThanTheRangeRepeatsStart() {
        assertThat(take(new CounterSequence(counter(1, 3, 10), RunnerSlice.SINGLE), 3))
                .containsExactly(1L, 1L, 1L);
    }

    @Test
    void negativeAndExtremeRangesDoNotOverflow() {
        assertThat(take(new CounterSequence(counter(-3, -1, 1), RunnerSlice.SINGLE), 4))
                .containsExactly(-3L, -2L, -1L, -3L);
        long half = Long.MAX_VALUE / 2;
        CounterSequence wide =
                new CounterSequence(counter(-5, Long.MAX_VALUE, half), RunnerSlice.SINGLE);
        assertThat(take(wide, 5)).containsExactly(half, 2 * half, -5L, half - 5, 2 * half - 5);
        assertThat(CounterSequence.cycleLength(Long.MIN_VALUE, Long.MAX_VALUE, 1))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(CounterSequence.cycleLength(Long.MIN_VALUE, Long.MAX_VALUE, 4))
                .isEqualTo(1L << 62);
    }

    @Test
    void runnersCountInDisjointBlocksThatCoverTheCycle() {
        ParameterSpec.Counter spec = counter(1, 10, 1);
        List<List<Long>> cycles = new ArrayList<>();
        for (int runner = 0; runner < 3; runner++) {
            cycles.add(take(new CounterSequence(spec, new RunnerSlice(runner, 3)), 9));
        }

        assertThat(cycles.get(0)).containsExactly(1L, 2L, 3L, 1L, 2L, 3L, 1L, 2L, 3L);
        assertThat(cycles.get(1)).containsExactly(4L, 5L, 6L, 4L, 5L, 6L, 4L, 5L, 6L);
        assertThat(cycles.get(2)).containsExactly(7L, 8L, 9L, 10L, 7L, 8L, 9L, 10L, 7L);
    }

    @Test
    void blocksFollowTheStep() {
        ParameterSpec.Counter spec = counter(100, 130, 5); // 100, 105, ..., 130: 7 values
        assertThat(take(new CounterSequence(spec, new RunnerSlice(0, 2)), 4))
                .containsExactly(100L, 105L, 110L, 100L);
        assertThat(take(new CounterSequence(spec, new RunnerSlice(1, 2)), 5))
                .containsExactly(115L, 120L, 125L, 130L, 115L);
    }

    @Test
    void manyRunnersNeverShareAValue() {
        ParameterSpec.Counter spec = counter(1, 100_000, 1);
        Set<Long> seen = new HashSet<>();
        int runners = 7;
        int total = 0;
        for (int runner = 0; runner < runners; runner++) {
            RunnerSlice slice = new RunnerSlice(runner, runners);
            long blockSize = slice.blockEnd(100_000) - slice.blockStart(100_000);
            CounterSequence sequence = new CounterSequence(spec, slice);
            for (long i = 0; i < blockSize; i++) {
                assertThat(seen.add(sequence.next())).isTrue();
                total++;
            }
        }
        assertThat(total).isEqualTo(100_000);
        assertThat(seen).hasSize(100_000).contains(1L, 100_000L);
    }

    @Test
    void aCycleShorterThanTheRunnerCountIsUsedWholeByEveryRunner() {
        ParameterSpec.Counter spec = counter(1, 2, 1);
        for (int runner = 0; runner < 3; runner++) {
            assertThat(take(new CounterSequence(spec, new RunnerSlice(runner, 3)), 3))
                    .containsExactly(1L, 2L, 1L);
        }
    }

    @Test
    void eachOccurrenceInARequestAdvancesTheSharedCounter() {
        RequestTemplate template =
                RequestTemplate.compile(
                        profile(
                                raw("A=$(C);", "B=$(C)", 0, LengthType.BODY),
                                new ParameterSpec.Counter(
                                        "C", 0, 1, 99, 1, IntFormat.parse("%08ld"))),
                        RunnerSlice.SINGLE);

        assertThat(buildText(template, 1)).isEqualTo("A=00000001;B=00000002");
        assertThat(buildText(template, 1)).isEqualTo("A=00000003;B=00000004");
    }
}
