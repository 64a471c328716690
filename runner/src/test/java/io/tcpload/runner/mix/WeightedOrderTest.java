package io.tcpload.runner.mix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class WeightedOrderTest {
    private static final int MAX_PERIOD = 32_000;

    @Test
    void aRoundHoldsEachRequestItsWeightInTimes() {
        WeightedOrder order = WeightedOrder.of(new int[] {70, 20, 10}, MAX_PERIOD);

        assertThat(order.period()).isEqualTo(10); // 70:20:10 is 7:2:1
        int[] counts = new int[3];
        for (int step = 0; step < order.period(); step++) {
            counts[order.at(step)]++;
        }
        assertThat(counts).containsExactly(7, 2, 1);
    }

    @Test
    void heavyRequestsAreSpreadOutNotBunched() {
        WeightedOrder order = WeightedOrder.of(new int[] {5, 1, 1}, MAX_PERIOD);

        StringBuilder round = new StringBuilder();
        for (int step = 0; step < order.period(); step++) {
            round.append((char) ('a' + order.at(step)));
        }
        // Smooth weighted round-robin: the light requests sit between the heavy ones.
        assertThat(round.toString()).isEqualTo("aabacaa");
    }

    @Test
    void everyHundredConsecutiveRequestsHoldTheSharesExactlyWhenARoundDividesAHundred() {
        for (int[] weights : new int[][] {{70, 20, 10}, {7, 2, 1}, {1}, {50, 50}, {3, 1}}) {
            WeightedOrder order = WeightedOrder.of(weights, MAX_PERIOD);
            int total = java.util.Arrays.stream(weights).sum();
            for (long start = 0; start < 2L * order.period(); start++) {
                int[] window = window(order, start, 100);
                for (int i = 0; i < weights.length; i++) {
                    assertThat(window[i] * total).isEqualTo(100 * weights[i]);
                }
            }
        }
    }

    /**
     * For any weights, each window of a hundred holds every request within one of its share rounded
     * down or up. Strictly "less than one away from the exact share" cannot hold for every set of
     * three or more distinct weights (no sequence is balanced for them: Fraenkel's conjecture,
     * proven for up to seven letters), so this is the bound the order keeps.
     */
    @Test
    void everyHundredConsecutiveRequestsHoldEachShareRoundedWithinOneRequest() {
        Random random = new Random(15);
        for (int trial = 0; trial < 300; trial++) {
            int names = 1 + random.nextInt(32);
            int[] weights = new int[names];
            long total = 0;
            for (int i = 0; i < names; i++) {
                weights[i] = 1 + random.nextInt(trial % 3 == 0 ? 1000 : 20);
                total += weights[i];
            }
            WeightedOrder order = WeightedOrder.of(weights, MAX_PERIOD);
            long start = random.nextInt(1_000_000);
            int length = 100;
            int[] window = window(order, start, length);
            // Slide the window over two rounds (or a thousand steps), checking each position.
            int slides = (int) Math.min(2L * order.period(), 1000);
            for (int slide = 0; slide < slides; slide++) {
                for (int i = 0; i < names; i++) {
                    double share = length * (double) weights[i] / total;
                    assertThat(window[i])
                            .as("weights %s, request %d, window at %d", weights, i, start + slide)
                            .isBetween((int) Math.floor(share) - 1, (int) Math.ceil(share) + 1);
                }
                window[order.at(start + slide)]--;
                window[order.at(start + slide + length)]++;
            }
        }
    }

    private static int[] window(WeightedOrder order, long start, int length) {
        int[] counts = new int[order.size()];
        for (int k = 0; k < length; k++) {
            counts[order.at(start + k)]++;
        }
        return counts;
    }

    @Test
    void theOrderIsAPureFunctionOfTheWeights() {
        WeightedOrder a = WeightedOrder.of(new int[] {3, 9, 4, 1}, MAX_PERIOD);
        WeightedOrder b = WeightedOrder.of(new int[] {3, 9, 4, 1}, MAX_PERIOD);

        for (int step = 0; step < 3 * a.period(); step++) {
            assertThat(a.at(step)).isEqualTo(b.at(step));
        }
    }

    @Test
    void aCursorStartsAtItsConnectionsOffsetAndWalksTheRoundInACircle() {
        WeightedOrder order = WeightedOrder.of(new int[] {7, 2, 1}, MAX_PERIOD);

        for (long connection : new long[] {0, 1, 9, 10, 1_000_003}) {
            WeightedOrder.Cursor cursor = order.cursor(connection);
            for (int k = 0; k < 25; k++) {
                assertThat(cursor.next()).isEqualTo(order.at(connection + k));
            }
        }
    }

    @Test
    void connectionsWithConsecutiveIndexesStartAtDifferentPlaces() {
        WeightedOrder order = WeightedOrder.of(new int[] {70, 20, 10}, MAX_PERIOD);

        // Ten connections, one per step of the round: at any moment together they send the mix.
        int[] firsts = new int[3];
        for (long connection = 0; connection < 10; connection++) {
            firsts[order.cursor(connection).next()]++;
        }
        assertThat(firsts).containsExactly(7, 2, 1);
    }

    @Test
    void weightsBelowOneOrALongPeriodAreRefused() {
        assertThatThrownBy(() -> WeightedOrder.of(new int[] {1, 0}, MAX_PERIOD))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
        assertThatThrownBy(() -> WeightedOrder.of(new int[] {}, MAX_PERIOD))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WeightedOrder.of(new int[] {1000, 999}, 1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1999");
    }
}
