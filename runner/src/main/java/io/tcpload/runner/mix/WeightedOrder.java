package io.tcpload.runner.mix;

import java.util.Arrays;

/**
 * The order in which a connection takes the requests of a transaction mix: smooth weighted
 * round-robin, computed once for one period and then read in a circle.
 *
 * <p>Smooth weighted round-robin gives every request its weight each step and takes the one with
 * the most (the first on a tie), which then gives back the total. Heavy requests are spread out
 * instead of coming in bursts, so a connection's traffic has the mix's proportions over any {@value
 * #WINDOW} requests in a row, not only in the long run: each request within one of its share of
 * them. That order keeps the bound for most weights (percentages, two requests, equal weights), but
 * not for every set of three or more unequal weights whose round does not divide a hundred (1 to 7,
 * a round of 28, puts 19 of some hundred on the weight 5, whose share is 17.86). Such weights are
 * checked when the order is made, and get a round of exactly a hundred instead: each request its
 * share of a hundred rounded down or up (so within one of it, and none left out), spread the same
 * smooth way, so that every hundred requests in a row hold those counts exactly. Their long-run
 * shares are then those hundredths, within one percentage point of the weights. So the bound holds
 * for any weights that give every request at least one in a hundred; when more requests have less
 * than that than a hundred has room for (seven tiny ones beside a weight of 1,000), they keep the
 * smooth order, which holds each within one of its share rounded down or up. The order is a pure
 * function of the weights: runs are reproducible.
 *
 * <p>Each connection starts at its own offset ({@link #cursor}), given by its global index, so that
 * connections, and the runners of a distributed test, do not send the same request at the same
 * moment. Immutable and thread-safe; a {@link Cursor} belongs to one connection.
 */
public final class WeightedOrder {
    /** How many requests in a row hold every request within one of its share of them. */
    public static final int WINDOW = 100;

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
        int[] order = smooth(reduced, period);
        if (!withinOneOverEveryWindow(order, reduced, total)) {
            int[] hundredths = hundredths(reduced, total);
            if (hundredths != null) {
                order = smooth(hundredths, WINDOW);
            }
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

    /**
     * The length of one round, after which the order repeats: the reduced weights' sum, or {@value
     * #WINDOW} for weights that take a round of hundredths.
     */
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

    /** Smooth weighted round-robin over one round of {@code period} steps (the weights' sum). */
    private static int[] smooth(int[] weights, int period) {
        int[] order = new int[period];
        long[] current = new long[weights.length];
        for (int step = 0; step < period; step++) {
            int best = 0;
            for (int i = 0; i < weights.length; i++) {
                current[i] += weights[i];
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= period;
            order[step] = best;
        }
        return order;
    }

    /**
     * Whether every {@value #WINDOW} steps in a row of the endless {@code order}, wherever they
     * start, hold each request within one of its share: {@code |count * total - WINDOW * weight| <=
     * total}, in whole numbers. One round of starts covers them all; a slide changes two counts.
     */
    private static boolean withinOneOverEveryWindow(int[] order, int[] weights, long total) {
        int period = order.length;
        long[] counts = new long[weights.length];
        for (int k = 0; k < WINDOW; k++) {
            counts[order[k % period]]++;
        }
        for (int i = 0; i < weights.length; i++) {
            if (!withinOne(counts[i], weights[i], total)) {
                return false;
            }
        }
        for (int start = 0; start < period; start++) {
            int leaving = order[start];
            int entering = order[(start + WINDOW) % period];
            counts[leaving]--;
            counts[entering]++;
            if (!withinOne(counts[leaving], weights[leaving], total)
                    || !withinOne(counts[entering], weights[entering], total)) {
                return false;
            }
        }
        return true;
    }

    private static boolean withinOne(long count, int weight, long total) {
        return Math.abs(count * total - (long) WINDOW * weight) <= total;
    }

    /**
     * Each request's share of {@value #WINDOW}, rounded down or up so that they sum to it: the
     * requests that would get none are rounded up first, then those with the largest remainders
     * (the first on a tie). Null when some request would still get none (more requests of a tiny
     * share than a hundred has room for), which then keep the order by their weights.
     */
    private static int[] hundredths(int[] weights, long total) {
        int[] counts = new int[weights.length];
        long[] remainders = new long[weights.length];
        int left = WINDOW;
        for (int i = 0; i < weights.length; i++) {
            counts[i] = (int) ((long) WINDOW * weights[i] / total);
            remainders[i] = (long) WINDOW * weights[i] % total;
            left -= counts[i];
        }
        Integer[] byNeed = new Integer[weights.length];
        for (int i = 0; i < weights.length; i++) {
            byNeed[i] = i;
        }
        Arrays.sort(
                byNeed,
                (a, b) -> {
                    if ((counts[a] == 0) != (counts[b] == 0)) {
                        return counts[a] == 0 ? -1 : 1;
                    }
                    return Long.compare(remainders[b], remainders[a]);
                });
        for (int k = 0; k < byNeed.length && left > 0; k++) {
            if (remainders[byNeed[k]] > 0) {
                counts[byNeed[k]]++;
                left--;
            }
        }
        for (int count : counts) {
            if (count == 0) {
                return null;
            }
        }
        return counts;
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
