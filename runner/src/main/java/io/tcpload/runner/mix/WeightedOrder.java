package io.tcpload.runner.mix;

import java.util.Arrays;

/**
 * The order in which a connection takes the requests of a transaction mix: smooth weighted
 * round-robin, computed once for one period and then read in a circle.
 *
 * <p>Smooth weighted round-robin gives every request its weight each step and takes the one with
 * the most (the first on a tie), which then gives back the total. Heavy requests are spread out
 * instead of coming in bursts, so a connection's traffic has the mix's proportions over any hundred
 * requests, not only in the long run: within one request of each share when the round divides a
 * hundred (exactly), for two requests and for equal weights; for other weights within one of the
 * share rounded down or up (the tests hold both). The order is a pure function of the weights: runs
 * are reproducible.
 *
 * <p>Each connection starts at its own offset ({@link #cursor}), given by its global index, so that
 * connections, and the runners of a distributed test, do not send the same request at the same
 * moment. Immutable and thread-safe; a {@link Cursor} belongs to one connection.
 */
public final class WeightedOrder {
    private final int[] weights;
    private final int[] order;

    private WeightedOrder(int[] weights, int[] order) {
        this.weights = weights;
        this.order = order;
    }

    /**
     * The order of requests weighted {@code weights[0]}, {@code weights[1]}, ... Weights with a
     * common divisor are reduced first, so the period is as short as the proportions allow.
     *
     * @throws IllegalArgumentException when there is no weight, one is below 1, or the period would
     *     exceed {@code maxPeriod}
     */
    public static WeightedOrder of(int[] weights, int maxPeriod) {
        if (weights.length == 0) {
            throw new IllegalArgumentException("a mix needs at least one request");
        }
        int divisor = 0;
        for (int weight : weights) {
            if (weight < 1) {
                throw new IllegalArgumentException("weights must be at least 1, got " + weight);
            }
            divisor = gcd(divisor, weight);
        }
        long total = 0;
        int[] reduced = new int[weights.length];
        for (int i = 0; i < weights.length; i++) {
            reduced[i] = weights[i] / divisor;
            total += reduced[i];
        }
        if (total > maxPeriod) {
            throw new IllegalArgumentException(
                    "the weights' period " + total + " is more than " + maxPeriod);
        }
        int period = (int) total;
        int[] order = new int[period];
        long[] current = new long[reduced.length];
        for (int step = 0; step < period; step++) {
            int best = 0;
            for (int i = 0; i < reduced.length; i++) {
                current[i] += reduced[i];
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= period;
            order[step] = best;
        }
        return new WeightedOrder(weights.clone(), order);
    }

    /** How many requests the mix holds. */
    public int size() {
        return weights.length;
    }

    /** The weights as given. */
    public int[] weights() {
        return weights.clone();
    }

    /** The length of one round, after which the order repeats: the reduced weights' sum. */
    public int period() {
        return order.length;
    }

    /** The request taken at step {@code step} of the endless order (any step, negative too). */
    public int at(long step) {
        return order[(int) Math.floorMod(step, (long) order.length)];
    }

    /** A connection's place in the order, starting at step {@code globalIndex}. */
    public Cursor cursor(long globalIndex) {
        return new Cursor(order, (int) Math.floorMod(globalIndex, (long) order.length));
    }

    /**
     * One connection's walk through the order. Not thread-safe: confined to the connection's event
     * loop; {@link #next} allocates nothing.
     */
    public static final class Cursor {
        private final int[] order;
        private int position;

        private Cursor(int[] order, int position) {
            this.order = order;
            this.position = position;
        }

        /** The next request's index. */
        public int next() {
            int request = order[position];
            position = position + 1 == order.length ? 0 : position + 1;
            return request;
        }
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    @Override
    public String toString() {
        return "WeightedOrder" + Arrays.toString(weights);
    }
}
