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
 * shares are then those hundredths, within one percentage point of the weights.
 *
 * <p>When more requests have a share below one in a hundred than such a round has room for (seven
 * of weights 1 to 7 beside one of 1,000), the tiny ones share a few steps of the round instead:
 * lanes, as many as their shares add up to, each lane one step at a fixed place of the round. A
 * tiny request belongs to one lane and takes its turns there, one round after another, so it comes
 * back only a hundred steps later or more: at most once in any hundred, within one of its share.
 * The lanes are filled heaviest request first into the lightest lane, so that their loads are near
 * equal and the long-run shares stay within one percentage point of the weights. So the bound holds
 * for any weights. The order is a pure function of the weights: runs are reproducible.
 *
 * <p>Each connection starts at its own offset ({@link #cursor}), given by its global index, so that
 * connections, and the runners of a distributed test, do not send the same request at the same
 * moment. Immutable and thread-safe; a {@link Cursor} belongs to one connection.
 */
public final class WeightedOrder {
    /** How many requests in a row hold every request within one of its share of them. */
    public static final int WINDOW = 100;

    private final int[] weights;

    /** One round; an entry below zero, {@code -(k + 1)}, is the step of lane {@code k}. */
    private final int[] order;

    /** Each lane's requests in turn, one per round; none unless tiny shares need them. */
    private final int[][] lanes;

    /** Where lane {@code k}'s step is in the round. */
    private final int[] laneSteps;

    private WeightedOrder(int[] weights, int[] order, int[][] lanes) {
        this.weights = weights;
        this.order = order;
        this.lanes = lanes;
        this.laneSteps = new int[lanes.length];
        for (int step = 0; step < order.length; step++) {
            if (order[step] < 0) {
                laneSteps[-order[step] - 1] = step;
            }
        }
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
            divisor = (int) gcd(divisor, weight);
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
        if (withinOneOverEveryWindow(order, reduced, total)) {
            return new WeightedOrder(weights.clone(), order, new int[0][]);
        }
        int[] hundredths = hundredths(reduced, total);
        if (hundredths != null) {
            return new WeightedOrder(weights.clone(), smooth(hundredths, WINDOW), new int[0][]);
        }
        return laned(weights.clone(), reduced, total);
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
     * How many steps the order takes to repeat: the reduced weights' sum, {@value #WINDOW} for
     * weights that take a round of hundredths, or a hundred times the lanes' common period ({@link
     * Long#MAX_VALUE} when that is longer).
     */
    public long period() {
        try {
            long rounds = 1;
            for (int[] lane : lanes) {
                rounds = Math.multiplyExact(rounds / gcd(rounds, lane.length), lane.length);
            }
            return Math.multiplyExact(rounds, order.length);
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /** The request taken at step {@code step} of the endless order (any step, negative too). */
    public int at(long step) {
        int request = order[(int) Math.floorMod(step, (long) order.length)];
        if (request >= 0) {
            return request;
        }
        int[] lane = lanes[-request - 1];
        return lane[(int) Math.floorMod(Math.floorDiv(step, (long) order.length), lane.length)];
    }

    /** A connection's place in the order, starting at step {@code globalIndex}. */
    public Cursor cursor(long globalIndex) {
        int position = (int) Math.floorMod(globalIndex, (long) order.length);
        long round = Math.floorDiv(globalIndex, (long) order.length);
        int[] turns = new int[lanes.length];
        for (int k = 0; k < lanes.length; k++) {
            // A lane whose step this round lies behind the start takes its next turn next round.
            long turn = laneSteps[k] < position ? round + 1 : round;
            turns[k] = (int) Math.floorMod(turn, lanes[k].length);
        }
        return new Cursor(order, lanes, position, turns);
    }

    /**
     * One connection's walk through the order. Not thread-safe: confined to the connection's event
     * loop; {@link #next} allocates nothing.
     */
    public static final class Cursor {
        private final int[] order;
        private final int[][] lanes;
        private final int[] turns;
        private int position;

        private Cursor(int[] order, int[][] lanes, int position, int[] turns) {
            this.order = order;
            this.lanes = lanes;
            this.position = position;
            this.turns = turns;
        }

        /** The next request's index. */
        public int next() {
            int request = order[position];
            position = position + 1 == order.length ? 0 : position + 1;
            if (request < 0) {
                int k = -request - 1;
                int[] lane = lanes[k];
                request = lane[turns[k]];
                turns[k] = turns[k] + 1 == lane.length ? 0 : turns[k] + 1;
            }
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

    /**
     * The order for weights where more requests have a share below one in a hundred than a round of
     * hundredths has room for: the others their share of a hundred rounded down or up, as in {@link
     * #hundredths}, and the tiny ones lanes, as many as their shares add up to rounded (at least
     * one, and each lane a tiny request or more). Always possible: the others' shares rounded down
     * leave at least one step, and rounded up at most the tiny shares' sum rounded up.
     */
    private static WeightedOrder laned(int[] weights, int[] reduced, long total) {
        int n = reduced.length;
        int[] counts = new int[n + 1];
        long[] remainders = new long[n];
        java.util.List<Integer> tiny = new java.util.ArrayList<>();
        long tinyWeight = 0;
        int left = WINDOW;
        int roundable = 0;
        for (int i = 0; i < n; i++) {
            if ((long) WINDOW * reduced[i] < total) {
                tiny.add(i);
                tinyWeight += reduced[i];
            } else {
                counts[i] = (int) ((long) WINDOW * reduced[i] / total);
                remainders[i] = (long) WINDOW * reduced[i] % total;
                left -= counts[i];
                roundable += remainders[i] > 0 ? 1 : 0;
            }
        }
        long nearest = Math.round((double) WINDOW * tinyWeight / total);
        int laneCount = (int) Math.max(Math.max(1, left - roundable), Math.min(nearest, left));
        laneCount = Math.min(laneCount, tiny.size());
        Integer[] byRemainder = new Integer[n];
        for (int i = 0; i < n; i++) {
            byRemainder[i] = i;
        }
        Arrays.sort(byRemainder, (a, b) -> Long.compare(remainders[b], remainders[a]));
        for (int k = 0; k < left - laneCount; k++) {
            counts[byRemainder[k]]++;
        }
        counts[n] = laneCount;
        int[] round = smooth(counts, WINDOW);
        int lane = 0;
        for (int step = 0; step < WINDOW; step++) {
            if (round[step] == n) {
                round[step] = -(++lane);
            }
        }
        return new WeightedOrder(weights, round, lanes(tiny, reduced, laneCount));
    }

    /**
     * The tiny requests parted into lanes of near-equal weight, the heaviest first into the
     * lightest lane (the first on a tie), each lane's requests in their smooth order.
     */
    private static int[][] lanes(java.util.List<Integer> tiny, int[] weights, int laneCount) {
        java.util.List<Integer> heaviestFirst = new java.util.ArrayList<>(tiny);
        heaviestFirst.sort((a, b) -> Integer.compare(weights[b], weights[a]));
        java.util.List<java.util.List<Integer>> members = new java.util.ArrayList<>();
        long[] loads = new long[laneCount];
        for (int k = 0; k < laneCount; k++) {
            members.add(new java.util.ArrayList<>());
        }
        for (int request : heaviestFirst) {
            int lightest = 0;
            for (int k = 1; k < laneCount; k++) {
                if (loads[k] < loads[lightest]) {
                    lightest = k;
                }
            }
            members.get(lightest).add(request);
            loads[lightest] += weights[request];
        }
        int[][] lanes = new int[laneCount][];
        for (int k = 0; k < laneCount; k++) {
            java.util.List<Integer> lane = members.get(k);
            lane.sort(null);
            int divisor = 0;
            for (int request : lane) {
                divisor = (int) gcd(divisor, weights[request]);
            }
            int[] laneWeights = new int[lane.size()];
            int sum = 0;
            for (int m = 0; m < lane.size(); m++) {
                laneWeights[m] = weights[lane.get(m)] / divisor;
                sum += laneWeights[m];
            }
            int[] turns = smooth(laneWeights, sum);
            lanes[k] = new int[sum];
            for (int t = 0; t < sum; t++) {
                lanes[k][t] = lane.get(turns[t]);
            }
        }
        return lanes;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
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
